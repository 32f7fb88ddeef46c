/*
 * The hosted payment page's script (served by the service at /pay/assets/hosted-page.js, loaded
 * with the page's CSP nonce). It drives the public REST routes exactly as any client would:
 * payment/sync-details -> the provider's browser library -> the gateway's public routes; then
 * payment/status. The amount it shows is the payer's choice at most: the server computes what is
 * charged from the form.
 *
 * It knows no gateway by name: each method radio names its gateway and its driver
 * (`data-gateway`, `data-driver`), and each gateway's container (`.provider[data-gateway]`) holds
 * the library's URL and public values (`data-library-url`, `data-browser-config`, JSON). A driver
 * is a way of paying in the browser (the adapter port's BrowserDriver): `card_element` mounts the
 * card library's field and pays with the page's button; `wallet_buttons` renders the wallet's own
 * buttons instead. The markup contract is in src/modules/form-view/form.renderer.ts.
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

  /** The current payment record: the sync-details answer (id, secret, token, amount, currency). */
  var record = null;
  var recordKey = null;
  var busy = false;
  /** Per gateway: what its driver started (the card library and field, the wallet's loaded currency). */
  var started = {};

  function $(selector) {
    return form.querySelector(selector);
  }

  function setStatus(text) {
    statusLine.textContent = text || '';
  }

  function fail(message) {
    setStatus('');
    document.getElementById('failure-message').textContent = message || 'The payment did not go through.';
    failureBox.hidden = false;
    setBusy(false);
  }

  function setBusy(value) {
    busy = value;
    payButton.disabled = value;
  }

  function succeed() {
    setStatus('');
    failureBox.hidden = true;
    successBox.hidden = false;
    payButton.hidden = true;
    form.querySelectorAll('.provider').forEach(function (provider) { provider.hidden = true; });
    form.classList.add('paid');
    var target = form.dataset.redirectUrl;
    if (target && /^https?:\/\//.test(target)) window.setTimeout(function () { window.location.assign(target); }, 1500);
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
      script.onerror = function () { reject(new Error('The payment provider could not be loaded. Check your connection and try again.')); };
      document.head.appendChild(script);
    });
  }

  async function api(path, body) {
    var response;
    try {
      response = await fetch(restBase + path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        credentials: 'omit',
        body: JSON.stringify(body),
      });
    } catch {
      throw new Error('The payment service cannot be reached. Check your connection and try again.');
    }
    var answer = await response.json().catch(function () { return null; });
    if (!response.ok) {
      var error = new Error((answer && answer.message) || 'The payment service answered ' + response.status + '.');
      error.params = answer && answer.data && answer.data.params;
      throw error;
    }
    return answer;
  }

  function selectedPrice() {
    return $('input[name="price"]:checked');
  }

  function selectedMethod() {
    return $('input[name="method"]:checked');
  }

  /** The container of a method's gateway: the library's URL and public values, and where it mounts. */
  function providerOf(method) {
    var provider = form.querySelector('.provider[data-gateway="' + method.dataset.gateway + '"]');
    if (!provider) throw new Error('This payment method cannot be used on this page.');
    return {
      gateway: method.dataset.gateway,
      libraryUrl: provider.dataset.libraryUrl,
      config: JSON.parse(provider.dataset.browserConfig || '{}'),
      mount: '#mount-' + method.dataset.gateway,
    };
  }

  /** The customer-entered amount in minor units (the server checks it against the price's bounds). */
  function customAmount(price) {
    var input = form.querySelector('.custom-amount[data-for="' + price.id + '"] input');
    var exponent = Number(price.dataset.exponent);
    var text = String(input.value || '').trim();
    if (!/^\d+([.,]\d+)?$/.test(text)) throw new Error('Enter an amount.');
    var parts = text.replace(',', '.').split('.');
    var fraction = (parts[1] || '').padEnd(exponent, '0');
    if (fraction.length > exponent) throw new Error('Enter the amount with at most ' + exponent + ' decimals.');
    return Number(parts[0]) * Math.pow(10, exponent) + Number(fraction || '0');
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

  function checkRequired() {
    var missing = Array.prototype.filter.call(form.querySelectorAll('[data-field][required]'), function (element) {
      return element.type === 'checkbox' ? !element.checked : String(element.value || '').trim() === '';
    });
    if (missing.length > 0) {
      missing[0].focus();
      throw new Error('Please fill in the required fields.');
    }
    var email = $('[name="email_address"]');
    if (email && !/^[^\s@]+@[^\s@]+$/.test(email.value.trim())) {
      email.focus();
      throw new Error('Please enter a valid email address.');
    }
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
    var key = method.value;
    if (record && recordKey === key && record.status !== 'completed') {
      body.payment_id = record.payment_id;
      body.payment_secret = record.payment_secret;
    }
    record = await api('/payment/sync-details', body);
    recordKey = key;
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
    fail(status.status === 'canceled' ? 'The payment was canceled.' : 'The payment did not go through.');
  }

  // --- driver card_element: the card library's field (Stripe.js), paid with the page's button --------

  async function startCard(method) {
    var provider = providerOf(method);
    if (started[provider.gateway]) return started[provider.gateway];
    await loadScript(provider.libraryUrl);
    if (typeof window.Stripe !== 'function') throw new Error('The card form could not be loaded.');
    var stripe = window.Stripe(provider.config.publishable_key);
    var card = stripe.elements().create('card');
    card.mount(provider.mount);
    started[provider.gateway] = { stripe: stripe, card: card };
    return started[provider.gateway];
  }

  async function payByCard(method) {
    var library = await startCard(method);
    var ref = await sync(method);
    setStatus('Contacting the card provider…');
    var intent = await api('/gateway-a/payment-intent-or-setup', ref);
    var details = payerDetails();
    var billing = { email: details.email_address };
    var name = [details.first_name, details.last_name].filter(Boolean).join(' ');
    if (name) billing.name = name;
    var stripe = library.stripe;
    var confirm = intent.intent_type === 'setup_intent' ? stripe.confirmCardSetup : stripe.confirmCardPayment;
    var result = await confirm.call(stripe, intent.client_secret, { payment_method: { card: library.card, billing_details: billing } });
    if (result.error) {
      // Told to the server too, so the record follows the provider's state.
      await api('/gateway-a/checkout', Object.assign({ intent_id: intent.intent_id }, ref)).catch(function () { return null; });
      throw new Error(result.error.message || 'The card was declined.');
    }
    setStatus('Confirming your payment…');
    await api('/gateway-a/checkout', Object.assign({ intent_id: intent.intent_id }, ref));
    await finish(ref);
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
    if (!window.paypal || typeof window.paypal.Buttons !== 'function') throw new Error('The wallet could not be loaded.');
    started[provider.gateway] = currency;
    var container = document.querySelector(provider.mount);
    container.textContent = '';
    var walletRef = null;
    await window.paypal
      .Buttons({
        onClick: function (_data, actions) {
          try {
            checkRequired();
            failureBox.hidden = true;
            return actions && actions.resolve ? actions.resolve() : true;
          } catch (error) {
            fail(error.message);
            return actions && actions.reject ? actions.reject() : false;
          }
        },
        createOrder: async function () {
          setBusy(true);
          failureBox.hidden = true;
          walletRef = await sync(selectedMethod());
          var order = await api('/gateway-b/order', walletRef);
          return order.order_id;
        },
        onApprove: async function (data) {
          try {
            setStatus('Confirming your payment…');
            await api('/gateway-b/order/capture', Object.assign({ order_id: data.orderID }, walletRef));
            await finish(walletRef);
          } catch (error) {
            fail(error.message);
          }
        },
        onCancel: function () {
          fail('The payment was canceled in the wallet.');
        },
        onError: function (error) {
          fail((error && error.message) || 'The wallet payment did not go through.');
        },
      })
      .render(provider.mount);
  }

  // --- wiring --------------------------------------------------------------------------------------

  /** The drivers by name: how each starts, and whether it pays with the page's button (`pay`) or its own buttons. */
  var DRIVERS = {
    card_element: { start: startCard, pay: payByCard, ownButtons: false },
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
      var first = $('input[name="method"]:not([disabled])');
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
    if (driver) {
      driver.start(method).catch(function (error) {
        fail(error.message);
      });
    }
  }

  form.addEventListener('change', function (event) {
    if (event.target.name === 'price' || event.target.name === 'method') refresh();
  });

  form.addEventListener('submit', async function (event) {
    event.preventDefault();
    if (busy) return;
    var method = selectedMethod();
    var driver = method ? DRIVERS[method.dataset.driver] : null;
    if (!driver || !driver.pay) return;
    failureBox.hidden = true;
    setBusy(true);
    try {
      checkRequired();
      await driver.pay(method);
    } catch (error) {
      fail(error.message);
    }
  });

  document.getElementById('retry-button').addEventListener('click', function () {
    failureBox.hidden = true;
    setStatus('');
    setBusy(false);
    if (record && record.status === 'completed') record = null;
    refresh();
  });

  refresh();
})();
