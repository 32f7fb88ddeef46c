/*
 * The hosted payment page's script (served by the service at /pay/assets/hosted-page.js, loaded
 * with the page's CSP nonce). It drives the public REST routes exactly as any client would:
 * payment/sync-details -> the provider's browser library -> the gateway's public routes; then
 * payment/status. The amount it shows is the payer's choice at most: the server computes what is
 * charged from the form.
 *
 * It knows no gateway by name: each method radio names its gateway, its driver and the driver's
 * options for it (`data-gateway`, `data-driver`, `data-driver-options`, JSON), and each gateway's
 * container (`.provider[data-gateway]`) holds the library's URL and public values
 * (`data-library-url`, `data-browser-config`, JSON). A driver is a way of paying in the browser
 * (the adapter port's BrowserDriver): `payment_element` mounts the card gateway's payment element
 * in deferred-intent mode and pays with the page's button; `wallet_buttons` renders the wallet's
 * own buttons instead. The markup contract is in src/modules/form-view/form.renderer.ts and
 * docs/hosted-page.md.
 *
 * Payers read only messages written for them (PAYER_MESSAGES, fieldMessage): never an API's text.
 */
(function () {
  'use strict';

  var form = document.getElementById('checkout-form');
  if (!form || !document.getElementById('pay-button')) return;
  var nonce = (document.currentScript && document.currentScript.nonce) || '';
  var restBase = form.dataset.restBase;
  var formId = Number(form.dataset.formId);
  var payButton = document.getElementById('pay-button');
  var statusLine = document.getElementById('status');
  var failureBox = document.getElementById('failure');
  var successBox = document.getElementById('success');
  var errorSummary = document.getElementById('error-summary');
  /** Origins allowed to frame this page (EMBED_ORIGINS): the only targets of its height messages. */
  var embedOrigins = (form.dataset.embedOrigins || '').split(' ').filter(Boolean);
  var framed = window.parent !== window;
  /** Where the provider sends the payer back after a redirect: this page at the top level, without query or fragment. */
  var returnUrl = window.location.origin + window.location.pathname;
  var RETURN_KEY = 'checkout-return:' + formId;

  /** The current payment record: the sync-details answer (id, secret, token, amount, currency). */
  var record = null;
  var recordKey = null;
  var busy = false;
  /** Per gateway: what its driver started (the payment element, the wallet's loaded currency). */
  var started = {};
  /** Idempotency keys of the current payment attempt (one Pay click), per creating route. */
  var attempt = {};

  // --- messages for payers --------------------------------------------------------------------------

  /** What a payer reads for each error code of the API; anything else gets the general message. */
  var PAYER_MESSAGES = {
    checkout_rate_limited: 'Too many attempts in a short time. Wait a minute, then try again.',
    checkout_gateway_unavailable: 'The payment provider is not answering right now. Try again in a moment.',
    checkout_unavailable: 'The payment service is busy right now. Try again in a moment.',
    checkout_gateway_error: 'The payment provider could not take this payment. Try again, or choose another payment method.',
    checkout_paused: 'This form cannot take payments right now. Please try again later.',
    checkout_not_found: 'This payment form is no longer available.',
    checkout_invalid_state: 'This payment has already been processed. Reload the page to make a new payment.',
    checkout_invalid_payment_reference: 'This payment session has expired. Reload the page and try again.',
    checkout_contract_mismatch: 'This payment could not be confirmed. Reload the page to see its status before paying again.',
    checkout_idempotency_in_progress: 'Your payment is still being processed. Wait a moment, then try again.',
  };
  var GENERAL_MESSAGE = 'The payment could not be completed. Please try again.';
  var OFFLINE_MESSAGE = 'The payment service cannot be reached. Check your connection and try again.';
  /** Request fields that are no input of the payer: a refusal naming them is about the method or the form. */
  var METHOD_PARAMS = { payment_gateway: true, payment_method: true, plan_index: true, price_index: true };

  /** An error a payer may read: `message` is always ours; `fields` lists the fields to mark. */
  function PayerError(message, fields) {
    var error = new Error(message);
    error.payerFacing = true;
    error.fields = fields || [];
    return error;
  }

  function fieldElement(name) {
    if (name === 'amount') {
      var price = selectedPrice();
      return price ? form.querySelector('.custom-amount[data-for="' + price.id + '"] input') : null;
    }
    var field = name.indexOf('custom_fields.') === 0 ? name.slice('custom_fields.'.length) : name;
    return form.querySelector('[data-field][name="' + (window.CSS && CSS.escape ? CSS.escape(field) : field) + '"]');
  }

  function fieldLabel(element) {
    var label = form.querySelector('label[for="' + element.id + '"]');
    var text = label ? label.textContent.replace('*', '').trim() : element.name;
    return text.charAt(0).toLowerCase() + text.slice(1);
  }

  /** The payer's message for a field: missing (`empty`) or refused. */
  function fieldMessage(element, empty) {
    if (element.name === 'email_address') return empty ? 'Enter your email address' : 'Enter a valid email address, like name@example.com';
    if (element.name === 'custom_amount') {
      var price = selectedPrice();
      return 'Enter an amount from ' + money(Number(price.dataset.customMin), price) + ' to ' + money(Number(price.dataset.customMax), price);
    }
    if (element.type === 'checkbox') return 'Tick the box to confirm ' + fieldLabel(element);
    if (element.tagName === 'SELECT') return 'Choose your ' + fieldLabel(element);
    return empty ? 'Enter your ' + fieldLabel(element) : 'Check your ' + fieldLabel(element);
  }

  /** The payer's error for an API answer: field errors from `data.params`, the rest by code. */
  function apiError(answer, status) {
    var code = answer && answer.code;
    var params = (answer && answer.data && answer.data.params) || {};
    if (code === 'rest_invalid_param' || code === 'rest_missing_callback_param') {
      var fields = [];
      var other = false;
      Object.keys(params).forEach(function (name) {
        var element = fieldElement(name);
        if (element) fields.push({ element: element, message: fieldMessage(element, false) });
        else if (METHOD_PARAMS[name]) other = true;
      });
      if (fields.length > 0) return PayerError('Check the details marked below.', fields);
      if (other) return PayerError('This payment method cannot be used for this price right now. Choose another one, or reload the page.');
    }
    if (PAYER_MESSAGES[code]) return PayerError(PAYER_MESSAGES[code]);
    return PayerError(status >= 500 ? 'Something went wrong on our side. Please try again in a moment.' : GENERAL_MESSAGE);
  }

  /**
   * A provider library's error: its card and validation messages are written for payers by the
   * provider (a declined card, an incomplete number); anything else gets ours.
   */
  function providerError(error) {
    if (error && (error.type === 'card_error' || error.type === 'validation_error') && error.message) return PayerError(error.message);
    return PayerError('The payment did not go through. Try again, or choose another payment method.');
  }

  // --- the page's states ---------------------------------------------------------------------------------

  function setStatus(text) {
    statusLine.textContent = text || '';
  }

  function setBusy(value) {
    busy = value;
    payButton.disabled = value;
    payButton.setAttribute('aria-busy', value ? 'true' : 'false');
  }

  function clearErrors() {
    errorSummary.hidden = true;
    errorSummary.querySelector('ul').textContent = '';
    form.querySelectorAll('[aria-invalid="true"]').forEach(function (element) {
      element.removeAttribute('aria-invalid');
      element.removeAttribute('aria-describedby');
    });
    form.querySelectorAll('.field-error').forEach(function (message) {
      message.hidden = true;
      message.textContent = '';
    });
    failureBox.hidden = true;
  }

  /** Marks each field (`aria-invalid`, its own message by `aria-describedby`) and moves focus to the summary of links to them. */
  function showFieldErrors(fields) {
    var list = errorSummary.querySelector('ul');
    fields.forEach(function (entry) {
      var element = entry.element;
      var messageId = 'error-' + (element.name === 'custom_amount' ? 'amount-' + element.closest('.custom-amount').dataset.for : element.name);
      var message = document.getElementById(messageId);
      if (!message) {
        message = document.createElement('p');
        message.className = 'field-error';
        message.id = messageId;
        element.parentNode.insertBefore(message, element);
      }
      message.textContent = entry.message;
      message.hidden = false;
      element.setAttribute('aria-invalid', 'true');
      element.setAttribute('aria-describedby', messageId);
      var item = document.createElement('li');
      var link = document.createElement('a');
      link.href = '#' + element.id;
      link.textContent = entry.message;
      link.addEventListener('click', function (event) {
        event.preventDefault();
        element.focus();
      });
      item.appendChild(link);
      list.appendChild(item);
    });
    errorSummary.hidden = false;
    errorSummary.focus();
  }

  function fail(error) {
    setStatus('');
    setBusy(false);
    var payerError = error && error.payerFacing ? error : PayerError(GENERAL_MESSAGE);
    if (payerError.fields.length > 0) return showFieldErrors(payerError.fields);
    document.getElementById('failure-message').textContent = payerError.message;
    failureBox.hidden = false;
    failureBox.focus();
  }

  function succeed() {
    setStatus('');
    clearErrors();
    document.getElementById('success-amount').textContent = 'Amount: ' + chargedText(record.amount, record.currency);
    document.getElementById('success-reference').textContent = 'Payment reference: ' + record.payment_id;
    successBox.hidden = false;
    payButton.hidden = true;
    form.querySelectorAll('.provider').forEach(function (provider) { provider.hidden = true; });
    form.classList.add('paid');
    successBox.focus();
    var target = form.dataset.redirectUrl;
    if (target && /^https?:\/\//.test(target)) {
      if (framed) {
        // A frame may move the whole tab only on the payer's click: a link to the merchant's next page.
        var next = document.createElement('a');
        next.href = target;
        next.target = '_top';
        next.rel = 'noopener';
        next.textContent = 'Continue';
        successBox.appendChild(next);
      } else {
        window.setTimeout(function () { window.location.assign(target); }, 1500);
      }
    }
  }

  // --- amounts ------------------------------------------------------------------------------------------

  function selectedPrice() {
    return form.querySelector('input[name="price"]:checked');
  }

  function selectedMethod() {
    return form.querySelector('input[name="method"]:checked');
  }

  function money(minor, price) {
    var digits = Number(price.dataset.displayDigits || price.dataset.exponent);
    var exponent = Number(price.dataset.exponent);
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: price.dataset.currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(minor / Math.pow(10, exponent));
  }

  /** The customer-entered amount in minor units, or null while the input holds none (the server checks the bounds). */
  function customAmount(price) {
    var input = form.querySelector('.custom-amount[data-for="' + price.id + '"] input');
    var exponent = Number(price.dataset.exponent);
    var text = String((input && input.value) || '').trim();
    if (!/^\d+([.,]\d+)?$/.test(text)) return null;
    var parts = text.replace(',', '.').split('.');
    var fraction = (parts[1] || '').padEnd(exponent, '0');
    if (fraction.length > exponent) return null;
    return Number(parts[0]) * Math.pow(10, exponent) + Number(fraction || '0');
  }

  /** What the chosen price charges now, in minor units (a custom amount as entered; null while unreadable). */
  function chosenAmount(price) {
    return price.dataset.customMin === undefined ? Number(price.dataset.amount) : customAmount(price);
  }

  /** The button's text: what will be charged ("Pay $10.00", "Subscribe $9.00 / month"). */
  function updatePayLabel() {
    var price = selectedPrice();
    if (!price) return;
    var amount = chosenAmount(price);
    payButton.textContent = price.dataset.payVerb + (amount === null ? '' : ' ' + money(amount, price) + price.dataset.paySuffix);
  }

  /** An amount of the chosen price as the payer read it on the button ("$9.00 / month"). */
  function chargedText(amount, currency) {
    var price = selectedPrice();
    if (!price || price.dataset.currency !== currency) return amount + ' ' + currency;
    return money(amount, price) + price.dataset.paySuffix;
  }

  // --- requests -------------------------------------------------------------------------------------------

  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
    var bytes = window.crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? '0' : '') + b.toString(16); }).join('');
  }

  function wait(ms) {
    return new Promise(function (resolve) { window.setTimeout(resolve, ms); });
  }

  /**
   * POST to the REST base. `key`: the Idempotency-Key of a creating route, the same for every try
   * of one payment attempt, so a request repeated after a lost answer creates nothing twice: it
   * is sent again once after a network failure, and while the first is still running (409) after
   * the server's Retry-After.
   */
  async function api(path, body, key) {
    var headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (key) headers['Idempotency-Key'] = key;
    for (var attemptNo = 0; ; attemptNo++) {
      var response;
      try {
        response = await fetch(restBase + path, { method: 'POST', headers: headers, credentials: 'omit', body: JSON.stringify(body) });
      } catch {
        if (key && attemptNo === 0) continue;
        throw PayerError(OFFLINE_MESSAGE);
      }
      var answer = await response.json().catch(function () { return null; });
      if (response.ok) return answer;
      if (key && response.status === 409 && answer && answer.code === 'checkout_idempotency_in_progress' && attemptNo < 3) {
        await wait(1000 * Math.min(3, Number(response.headers.get('Retry-After')) || 1));
        continue;
      }
      throw apiError(answer, response.status);
    }
  }

  function loadScript(src, attributes) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement('script');
      script.src = src;
      script.nonce = nonce;
      Object.keys(attributes || {}).forEach(function (name) {
        script.setAttribute(name, attributes[name]);
      });
      script.onload = function () { resolve(); };
      script.onerror = function () { reject(PayerError('The payment provider could not be loaded. Check your connection and try again.')); };
      document.head.appendChild(script);
    });
  }

  /** The container of a method's gateway: the library's URL and public values, and where it mounts. */
  function providerOf(method) {
    var provider = form.querySelector('.provider[data-gateway="' + method.dataset.gateway + '"]');
    if (!provider) throw PayerError('This payment method cannot be used on this page.');
    return {
      gateway: method.dataset.gateway,
      libraryUrl: provider.dataset.libraryUrl,
      config: JSON.parse(provider.dataset.browserConfig || '{}'),
      mount: '#mount-' + method.dataset.gateway,
    };
  }

  function driverOptions(method) {
    return JSON.parse(method.dataset.driverOptions || '{}');
  }

  function payerDetails() {
    var details = { custom_fields: {} };
    form.querySelectorAll('[data-field]').forEach(function (element) {
      var value = element.type === 'checkbox' ? element.checked : String(element.value || '').trim();
      if (element.dataset.field === 'core') {
        if (value !== '') details[element.name] = value;
      } else if (value !== '' && value !== false) {
        details.custom_fields[element.name] = value;
      }
    });
    if (Object.keys(details.custom_fields).length === 0) delete details.custom_fields;
    return details;
  }

  /** The page's own checks before anything is sent; every field in error at once. */
  function checkFields() {
    var fields = [];
    form.querySelectorAll('[data-field]').forEach(function (element) {
      var empty = element.type === 'checkbox' ? !element.checked : String(element.value || '').trim() === '';
      if (element.required && empty) fields.push({ element: element, message: fieldMessage(element, true) });
      else if (element.name === 'email_address' && !empty && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(element.value.trim())) fields.push({ element: element, message: fieldMessage(element, false) });
    });
    var price = selectedPrice();
    if (price && price.dataset.customMin !== undefined) {
      var amount = customAmount(price);
      if (amount === null || amount < Number(price.dataset.customMin) || amount > Number(price.dataset.customMax)) {
        var input = form.querySelector('.custom-amount[data-for="' + price.id + '"] input');
        fields.unshift({ element: input, message: fieldMessage(input, false) });
      }
    }
    if (fields.length > 0) throw PayerError('Check the details marked below.', fields);
  }

  /** payment/sync-details: creates the record, or updates it (same gateway and method) on a retry. */
  async function sync(method) {
    var price = selectedPrice();
    var body = Object.assign(
      {
        form_id: formId,
        payment_gateway: method.dataset.gateway,
        payment_method: method.dataset.method,
        plan_index: Number(price.dataset.planIndex),
        price_index: Number(price.dataset.priceIndex),
      },
      payerDetails(),
    );
    if (price.dataset.customMin !== undefined) body.amount = customAmount(price);
    if (record && recordKey === method.dataset.gateway && record.status !== 'completed') {
      // The same record, now for the method the payer chose: the answer's token is bound to it.
      body.payment_id = record.payment_id;
      body.payment_secret = record.payment_secret;
    }
    record = await api('/payment/sync-details', body, attempt.sync);
    recordKey = method.dataset.gateway;
    return reference(method);
  }

  function reference(method) {
    return {
      payment_id: record.payment_id,
      payment_secret: record.payment_secret,
      checkout_token: record.checkout_token,
      form_id: formId,
      payment_gateway: method.dataset.gateway,
      payment_method: method.dataset.method,
      amount: record.amount,
      currency: record.currency,
    };
  }

  async function finish(ref) {
    var status = await api('/payment/status', ref);
    record.status = status.status;
    if (status.status === 'completed') return succeed();
    if (status.status === 'processing') {
      setBusy(false);
      payButton.hidden = true;
      return setStatus('Your payment is being processed. You will receive an email once it is complete.');
    }
    fail(PayerError(status.status === 'canceled' ? 'The payment was canceled.' : 'The payment did not go through. Try again, or choose another payment method.'));
  }

  // --- driver payment_element: the card gateway's payment element, deferred-intent mode -----------------

  /**
   * The elements options of the chosen method and price: the mode (`payment` for a one-time price,
   * `setup` for a recurring one: the server creates a SetupIntent and then the subscription), the
   * amount and currency of the price, and the method's options from the server (its payment
   * method types or automatic ones, the capture method or future usage of the mode), which are
   * built from the same function as the intent, so the two match.
   */
  function elementsOptions(method, price) {
    var options = driverOptions(method);
    var mode = price.dataset.frequency === 'one-time' ? 'payment' : 'setup';
    var result = Object.assign({ mode: mode, currency: price.dataset.currency.toLowerCase() }, options.elements || {}, (options.modes || {})[mode] || {});
    if (mode === 'payment') result.amount = chosenAmount(price) || Number(price.dataset.customMin) || 1;
    return result;
  }

  /** Mounts (or re-mounts, when the method, mode or currency changed) the payment element for the chosen method and price. */
  async function startElement(method) {
    var provider = providerOf(method);
    var state = started[provider.gateway];
    if (!state) {
      await loadScript(provider.libraryUrl);
      if (typeof window.Stripe !== 'function') throw PayerError('The payment form could not be loaded. Reload the page and try again.');
      state = started[provider.gateway] = { library: window.Stripe(provider.config.publishable_key), elements: null, element: null, shape: null };
    }
    var price = selectedPrice();
    var options = elementsOptions(method, price);
    var shape = JSON.stringify([method.value, options.mode, options.currency]);
    if (state.shape === shape) {
      if (options.amount && options.amount !== state.amount) {
        state.elements.update({ amount: options.amount });
        state.amount = options.amount;
      }
      return state;
    }
    if (state.element) state.element.destroy();
    state.elements = state.library.elements(options);
    state.element = state.elements.create('payment', Object.assign({ layout: 'tabs' }, driverOptions(method).element || {}));
    state.element.mount(provider.mount);
    state.shape = shape;
    state.amount = options.amount;
    state.currency = options.currency;
    return state;
  }

  function storeReturn(method, ref, intent) {
    try {
      window.sessionStorage.setItem(RETURN_KEY, JSON.stringify({ method: method.value, price: selectedPrice().id, ref: ref, intent_id: intent.intent_id, at: Date.now() }));
    } catch {
      // No storage (a privacy mode): a return from the provider then shows the provider's outcome only.
    }
  }

  function takeReturn() {
    try {
      var saved = JSON.parse(window.sessionStorage.getItem(RETURN_KEY) || 'null');
      window.sessionStorage.removeItem(RETURN_KEY);
      return saved && Date.now() - saved.at < 3600 * 1000 ? saved : null;
    } catch {
      return null;
    }
  }

  async function payByElement(method) {
    var state = started[method.dataset.gateway];
    if (!state || !state.elements) throw PayerError('The payment form is still loading. Try again in a moment.');
    var options = driverOptions(method);
    if (framed && options.leaves_page) {
      // This method may send the payer to the provider and back: a frame cannot follow it there (see docs/hosted-page.md).
      window.open(returnUrl + '#method=' + encodeURIComponent(method.value), '_blank', 'noopener');
      setBusy(false);
      return setStatus('The payment continues in a new tab.');
    }
    // First of all, while the click still counts as the payer's gesture (wallet sheets need it): the element checks its fields.
    var submitted = await state.elements.submit();
    if (submitted && submitted.error) throw providerError(submitted.error);
    // Records the method the payer chose; the new checkout token is bound to it, and so is the intent made with it.
    var ref = await sync(method);
    var currency = ref.currency.toLowerCase();
    if (selectedPrice().dataset.frequency === 'one-time' && (ref.amount !== state.amount || currency !== state.currency)) {
      // The server's amount is the one charged (and the intent's): the element must say the same or the provider refuses.
      state.elements.update({ amount: ref.amount, currency: currency });
      state.amount = ref.amount;
      state.currency = currency;
    }
    setStatus('Contacting the payment provider…');
    var intent = await api('/gateway-a/payment-intent-or-setup', ref, attempt.intent);
    storeReturn(method, ref, intent);
    var details = payerDetails();
    var billing = { email: details.email_address };
    var name = [details.first_name, details.last_name].filter(Boolean).join(' ');
    if (name) billing.name = name;
    var library = state.library;
    var confirm = intent.intent_type === 'setup_intent' ? library.confirmSetup : library.confirmPayment;
    var result = await confirm.call(library, {
      elements: state.elements,
      clientSecret: intent.client_secret,
      confirmParams: { return_url: returnUrl, payment_method_data: { billing_details: billing } },
      redirect: 'if_required',
    });
    takeReturn();
    if (result.error) {
      // Told to the server too, so the record follows the provider's state.
      await api('/gateway-a/checkout', Object.assign({ intent_id: intent.intent_id }, ref)).catch(function () { return null; });
      throw providerError(result.error);
    }
    setStatus('Confirming your payment…');
    await api('/gateway-a/checkout', Object.assign({ intent_id: intent.intent_id }, ref));
    await finish(ref);
  }

  /**
   * Back from the provider after a redirect (3-D Secure outside the page, a wallet's or bank's own
   * page). The provider appends its intent id and client secret to `return_url`; they leave the
   * address bar and the history at once. With this tab's stored attempt (sessionStorage: the same
   * page at the top level) the payment is finished as usual; without it (the payment was started
   * in an embedded frame, whose storage is not this page's, or in another tab) the provider's
   * `redirect_status` says what to tell the payer, and the webhook completes the record.
   */
  async function resumeAfterRedirect() {
    var params = new URLSearchParams(window.location.search);
    var intentId = params.get('payment_intent') || params.get('setup_intent');
    if (!intentId) return false;
    var redirectStatus = params.get('redirect_status');
    window.history.replaceState(null, '', window.location.pathname);
    var saved = takeReturn();
    if (saved && saved.intent_id === intentId) {
      var method = form.querySelector('input[name="method"][value="' + saved.method + '"]');
      var price = document.getElementById(saved.price);
      if (method && price) {
        price.checked = true;
        method.checked = true;
        refresh();
        record = { payment_id: saved.ref.payment_id, payment_secret: saved.ref.payment_secret, checkout_token: saved.ref.checkout_token, amount: saved.ref.amount, currency: saved.ref.currency };
        recordKey = method.dataset.gateway;
        setBusy(true);
        setStatus('Confirming your payment…');
        try {
          await api('/gateway-a/checkout', Object.assign({ intent_id: intentId }, saved.ref));
          await finish(saved.ref);
        } catch (error) {
          fail(error);
        }
        return true;
      }
    }
    if (redirectStatus === 'succeeded' || redirectStatus === 'processing') {
      payButton.hidden = true;
      setStatus('Thank you: your payment was received and is being confirmed. You will receive an email once it is complete.');
      statusLine.tabIndex = -1;
      statusLine.focus();
      return true;
    }
    fail(PayerError('The payment was not completed. You can try again.'));
    return false;
  }

  // --- driver wallet_buttons: the wallet's own buttons (PayPal's JS SDK) --------------------------------

  async function startWallet(method) {
    var provider = providerOf(method);
    var price = selectedPrice();
    var currency = price.dataset.currency;
    if (window.paypal && started[provider.gateway] === currency) return;
    if (window.paypal) {
      // The SDK is loaded for one currency: a price in another one needs it again.
      document.querySelectorAll('script[data-checkout-wallet]').forEach(function (script) { script.remove(); });
      delete window.paypal;
    }
    var url = new URL(provider.libraryUrl);
    url.searchParams.set('client-id', provider.config.client_id);
    url.searchParams.set('currency', currency);
    url.searchParams.set('intent', 'capture');
    url.searchParams.set('components', 'buttons');
    await loadScript(url.toString(), { 'data-csp-nonce': nonce, 'data-checkout-wallet': 'true' });
    if (!window.paypal || typeof window.paypal.Buttons !== 'function') throw PayerError('The wallet could not be loaded. Reload the page and try again.');
    started[provider.gateway] = currency;
    var container = document.querySelector(provider.mount);
    container.textContent = '';
    var walletRef = null;
    await window.paypal
      .Buttons({
        onClick: function (_data, actions) {
          try {
            clearErrors();
            checkFields();
            attempt = { sync: newKey(), order: newKey() };
            return actions && actions.resolve ? actions.resolve() : true;
          } catch (error) {
            fail(error);
            return actions && actions.reject ? actions.reject() : false;
          }
        },
        createOrder: async function () {
          setBusy(true);
          try {
            walletRef = await sync(selectedMethod());
            var order = await api('/gateway-b/order', walletRef, attempt.order);
            return order.order_id;
          } catch (error) {
            fail(error);
            throw error;
          }
        },
        onApprove: async function (data) {
          try {
            setStatus('Confirming your payment…');
            await api('/gateway-b/order/capture', Object.assign({ order_id: data.orderID }, walletRef));
            await finish(walletRef);
          } catch (error) {
            fail(error);
          }
        },
        onCancel: function () {
          fail(PayerError('The payment was canceled in the wallet. You can try again.'));
        },
        onError: function (error) {
          if (!busy && error && error.payerFacing) return;
          fail(PayerError('The wallet payment did not go through. Try again, or choose another payment method.'));
        },
      })
      .render(provider.mount);
  }

  // --- wiring --------------------------------------------------------------------------------------

  /** The drivers by name: how each starts, and whether it pays with the page's button (`pay`) or its own buttons. */
  var DRIVERS = {
    payment_element: { start: startElement, pay: payByElement, ownButtons: false },
    wallet_buttons: { start: startWallet, pay: null, ownButtons: true },
  };

  function refresh() {
    var price = selectedPrice();
    form.querySelectorAll('.custom-amount').forEach(function (label) {
      label.hidden = !price || label.dataset.for !== price.id;
    });
    var recurring = price && price.dataset.frequency !== 'one-time';
    form.querySelectorAll('input[name="method"]').forEach(function (input) {
      input.disabled = Boolean(recurring && input.dataset.oneTimeOnly);
      if (input.disabled && input.checked) input.checked = false;
    });
    var method = selectedMethod();
    if (!method) {
      var first = form.querySelector('input[name="method"]:not([disabled])');
      if (first) first.checked = true;
      method = first;
    }
    var gateway = method ? method.dataset.gateway : null;
    var driver = method ? DRIVERS[method.dataset.driver] : null;
    form.querySelectorAll('.provider').forEach(function (provider) {
      provider.hidden = provider.dataset.gateway !== gateway;
    });
    payButton.hidden = Boolean(driver && driver.ownButtons) || successBox.hidden === false;
    payButton.disabled = !driver || !driver.pay || busy;
    updatePayLabel();
    if (driver) {
      driver.start(method).catch(function (error) {
        fail(error);
      });
    }
  }

  form.addEventListener('change', function (event) {
    if (event.target.name === 'price' || event.target.name === 'method') refresh();
  });

  form.addEventListener('input', function (event) {
    if (event.target.name !== 'custom_amount') return;
    updatePayLabel();
    var method = selectedMethod();
    var driver = method ? DRIVERS[method.dataset.driver] : null;
    // The element shows what will be charged too (a wallet's sheet names the amount).
    if (driver && driver === DRIVERS.payment_element && customAmount(selectedPrice()) !== null) driver.start(method).catch(fail);
  });

  form.addEventListener('submit', async function (event) {
    event.preventDefault();
    if (busy) return;
    var method = selectedMethod();
    var driver = method ? DRIVERS[method.dataset.driver] : null;
    if (!driver || !driver.pay) return;
    clearErrors();
    setBusy(true);
    // One payment attempt: every creating request of it carries the same keys, so a repeated request creates nothing twice.
    attempt = { sync: newKey(), intent: newKey() };
    try {
      checkFields();
      await driver.pay(method);
    } catch (error) {
      fail(error);
    }
  });

  document.getElementById('retry-button').addEventListener('click', function () {
    clearErrors();
    setStatus('');
    setBusy(false);
    if (record && record.status === 'completed') record = null;
    refresh();
    payButton.focus();
  });

  // --- inside a merchant's page: the frame follows the form's height --------------------------------------

  if (framed && embedOrigins.length > 0 && typeof ResizeObserver === 'function') {
    var lastHeight = 0;
    new ResizeObserver(function () {
      var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === lastHeight) return;
      lastHeight = height;
      // Sent to each allowed origin by name: the browser delivers it only to the one that framed the page.
      embedOrigins.forEach(function (origin) {
        window.parent.postMessage({ type: 'checkout:height', form_id: formId, height: height }, origin);
      });
    }).observe(document.documentElement);
  }

  // A hand-off from a frame names the method to preselect (`#method=<gateway>:<method>`).
  var preset = /^#method=([\w%:]+)$/.exec(window.location.hash);
  var presetValue = preset ? decodeURIComponent(preset[1]) : '';
  if (/^[\w:]+$/.test(presetValue)) {
    var presetInput = form.querySelector('input[name="method"][value="' + presetValue + '"]:not([disabled])');
    if (presetInput) presetInput.checked = true;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }

  refresh();
  resumeAfterRedirect().catch(fail);
})();
