/*
 * The hosted payment page's script (bundled into /pay/assets/hosted-page-<hash>.js, loaded with
 * the page's CSP nonce). It drives the public REST routes exactly as any client would:
 * payment/sync-details, then what the gateway's driver does, then payment/status. The amount it
 * shows is the payer's choice at most: the server computes what is charged from the form.
 *
 * It names no gateway, route or provider library. Each gateway container
 * (`.provider[data-gateway]`) names its driver and the driver's bundle (`data-driver`,
 * `data-driver-src`), the library's URL, the public values and the slice's routes
 * (`data-library-url`, `data-browser-config`, `data-routes`); the page loads each driver bundle,
 * which hands back its factory (common/browser-driver), and gives the driver a DriverContext. The
 * markup contract is in src/modules/form-view/form.renderer.ts and docs/hosted-page.md.
 *
 * Payers read only messages written for them, in their language (the catalog's `js.*` texts the
 * server puts on the form, messages.ts; the form's field messages): never an API's text.
 */
import {
  type CheckoutDriver,
  type Choice,
  type ChosenMethod,
  DRIVER_DEFINED_EVENT,
  type DriverContext,
  type DriverDefinition,
  type DriverFactory,
  isPayerFacing,
  loadMessages,
  pageLocale,
  type PaymentReference,
  type ResumedAttempt,
  text,
} from '../../../common/browser-driver/index.js';
import { CheckoutForm } from './checkout-form.js';
import { PayerError } from './payer-error.js';
import { newKey, RestClient } from './rest-client.js';

/** The sync-details answer: the record's reference and what it charges. */
interface PaymentRecord {
  payment_id: number;
  payment_secret: string;
  checkout_token: string;
  amount: number;
  currency: string;
  status?: string;
}

function element<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function startPage(formElement: HTMLFormElement, payButton: HTMLButtonElement): void {
  loadMessages(document.getElementById('page-messages'));
  const nonce = document.currentScript?.nonce ?? '';
  const form = new CheckoutForm(formElement);
  const formId = Number(formElement.dataset.formId);
  const rest = new RestClient(formElement.dataset.restBase ?? '', form);
  const statusLine = element<HTMLElement>('status');
  const failureBox = element<HTMLElement>('failure');
  const successBox = element<HTMLElement>('success');
  const errorSummary = element<HTMLElement>('error-summary');
  /** Origins allowed to frame this page (EMBED_ORIGINS): the only targets of its height messages. */
  const embedOrigins = (formElement.dataset.embedOrigins ?? '').split(' ').filter(Boolean);
  const framed = window.parent !== window;
  /** Where a provider sends the payer back after a redirect: this page at the top level, without query or fragment. */
  const returnUrl = window.location.origin + window.location.pathname;

  /** The current payment record (the sync-details answer) and the gateway it was made for. */
  let record: PaymentRecord | null = null;
  let recordGateway: string | null = null;
  let busy = false;
  /** Idempotency keys of the current payment attempt (one Pay click), per creating route, made when first asked for. */
  let attemptKeys: Record<string, string> = {};
  /** The drivers started for this page's gateways, by gateway id. */
  const drivers = new Map<string, CheckoutDriver>();

  // --- the page's states ----------------------------------------------------------------------------

  function setStatus(text: string): void {
    statusLine.textContent = text || '';
  }

  function setBusy(value: boolean): void {
    busy = value;
    payButton.disabled = value;
    payButton.setAttribute('aria-busy', value ? 'true' : 'false');
  }

  function clearErrors(): void {
    errorSummary.hidden = true;
    errorSummary.querySelector('ul')!.textContent = '';
    formElement.querySelectorAll('[aria-invalid="true"]').forEach((field) => {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
    });
    formElement.querySelectorAll<HTMLElement>('.field-error').forEach((message) => {
      message.hidden = true;
      message.textContent = '';
    });
    failureBox.hidden = true;
  }

  /** Marks each field (`aria-invalid`, its own message by `aria-describedby`) and moves focus to the summary of links to them. */
  function showFieldErrors(error: PayerError): void {
    const list = errorSummary.querySelector('ul')!;
    for (const entry of error.fields) {
      const field = entry.element;
      const messageId = `error-${field.name === 'custom_amount' ? `amount-${field.closest<HTMLElement>('.custom-amount')?.dataset.for}` : field.name}`;
      let message = document.getElementById(messageId);
      if (!message) {
        message = document.createElement('p');
        message.className = 'field-error';
        message.id = messageId;
        field.parentNode!.insertBefore(message, field);
      }
      message.textContent = entry.message;
      message.hidden = false;
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', messageId);
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `#${field.id}`;
      link.textContent = entry.message;
      link.addEventListener('click', (event) => {
        event.preventDefault();
        field.focus();
      });
      item.appendChild(link);
      list.appendChild(item);
    }
    errorSummary.hidden = false;
    errorSummary.focus();
  }

  function fail(error: unknown): void {
    setStatus('');
    setBusy(false);
    const payerError = isPayerFacing(error) ? (error as PayerError) : new PayerError(text('general'));
    if (payerError.fields?.length > 0) return showFieldErrors(payerError);
    element<HTMLElement>('failure-message').textContent = payerError.message;
    failureBox.hidden = false;
    failureBox.focus();
  }

  function succeed(paid: PaymentRecord): void {
    setStatus('');
    clearErrors();
    element<HTMLElement>('success-amount').textContent = text('successAmount', { amount: form.chargedText(paid.amount, paid.currency) });
    element<HTMLElement>('success-reference').textContent = text('successReference', { reference: paid.payment_id });
    successBox.hidden = false;
    payButton.hidden = true;
    formElement.querySelectorAll<HTMLElement>('.provider').forEach((provider) => (provider.hidden = true));
    formElement.classList.add('paid');
    successBox.focus();
    const target = formElement.dataset.redirectUrl;
    if (target && /^https?:\/\//.test(target)) {
      if (framed) {
        // A frame may move the whole tab only on the payer's click: a link to the merchant's next page.
        const next = document.createElement('a');
        next.href = target;
        next.target = '_top';
        next.rel = 'noopener';
        next.textContent = text('continue');
        successBox.appendChild(next);
      } else {
        window.setTimeout(() => window.location.assign(target), 1500);
      }
    }
  }

  function updatePayLabel(): void {
    const label = form.payLabel();
    if (label !== null) payButton.textContent = label;
  }

  // --- the payment record ----------------------------------------------------------------------------

  function attemptKey(name: string): string {
    attemptKeys[name] ??= newKey();
    return attemptKeys[name];
  }

  function currentChoice(method: HTMLInputElement): Choice {
    return { method: form.chosenMethod(method), price: form.chosenPrice(form.selectedPrice()!) };
  }

  /** payment/sync-details: creates the record, or updates it (same gateway) on a retry. */
  async function sync(): Promise<PaymentReference> {
    const method = form.selectedMethod();
    const price = form.selectedPrice();
    if (!method || !price) throw new PayerError(text('methodUnavailable'));
    const gateway = method.dataset.gateway ?? '';
    const body: Record<string, unknown> = {
      form_id: formId,
      payment_gateway: gateway,
      payment_method: method.dataset.method,
      plan_index: Number(price.dataset.planIndex),
      price_index: Number(price.dataset.priceIndex),
      ...form.payerDetails(),
      // The language the page is shown in: the payer's later emails use it.
      locale: pageLocale(),
    };
    if (price.dataset.customMin !== undefined) body.amount = form.customAmount(price);
    if (record && recordGateway === gateway && record.status !== 'completed') {
      // The same record, now for the method the payer chose: the answer's token is bound to it.
      body.payment_id = record.payment_id;
      body.payment_secret = record.payment_secret;
    }
    const answer = await rest.post<PaymentRecord>('/payment/sync-details', body, attemptKey('sync'));
    record = answer;
    recordGateway = gateway;
    return {
      payment_id: answer.payment_id,
      payment_secret: answer.payment_secret,
      checkout_token: answer.checkout_token,
      form_id: formId,
      payment_gateway: gateway,
      payment_method: method.dataset.method ?? '',
      amount: answer.amount,
      currency: answer.currency,
    };
  }

  async function finish(reference: PaymentReference): Promise<void> {
    const answer = await rest.post<{ status: string }>('/payment/status', reference);
    if (record) record.status = answer.status;
    if (answer.status === 'completed') return succeed(record ?? reference);
    if (answer.status === 'processing') {
      setBusy(false);
      payButton.hidden = true;
      return setStatus(text('processing'));
    }
    fail(new PayerError(text(answer.status === 'canceled' ? 'canceled' : 'declined')));
  }

  // --- drivers ----------------------------------------------------------------------------------------

  function loadScript(src: string, attributes: Readonly<Record<string, string>> = {}, failure = text('providerLoad')): Promise<void> {
    return new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.nonce = nonce;
      for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
      script.onload = () => resolve();
      script.onerror = () => reject(new PayerError(failure));
      document.head.appendChild(script);
    });
  }

  /** Driver bundles by name: each is loaded once and hands back its factory when it runs. */
  const factories = new Map<string, Promise<DriverFactory>>();

  function loadDriver(name: string, src: string): Promise<DriverFactory> {
    let pending = factories.get(name);
    if (!pending) {
      pending = new Promise<DriverFactory>((resolve, reject) => {
        const unavailable = new PayerError(text('methodReload'));
        const listener = (event: Event) => {
          const definition = (event as CustomEvent<DriverDefinition>).detail;
          if (definition?.name !== name) return;
          document.removeEventListener(DRIVER_DEFINED_EVENT, listener);
          resolve(definition.create);
        };
        document.addEventListener(DRIVER_DEFINED_EVENT, listener);
        // A bundle defines its driver while it runs, before its load event: a load without a definition is a wrong bundle.
        loadScript(src, {}, unavailable.message).then(
          () => reject(unavailable),
          (error: unknown) => reject(error),
        ).finally(() => document.removeEventListener(DRIVER_DEFINED_EVENT, listener));
      });
      factories.set(name, pending);
    }
    return pending;
  }

  function driverContext(container: HTMLElement): DriverContext {
    const gateway = container.dataset.gateway ?? '';
    const mount = container.querySelector<HTMLElement>('.provider-mount')!;
    return {
      mount: { element: mount, selector: `#${mount.id}` },
      libraryUrl: container.dataset.libraryUrl ?? '',
      browserConfig: JSON.parse(container.dataset.browserConfig || '{}') as Record<string, string>,
      routes: JSON.parse(container.dataset.routes || '{}') as Record<string, string>,
      nonce,
      formId,
      locale: pageLocale(),
      text,
      returnUrl,
      framed,
      loadScript: (url, attributes) => loadScript(url, attributes),
      api: (path, body, keyName) => rest.post(path, body, keyName ? attemptKey(keyName) : undefined),
      choice: () => {
        const method = form.selectedMethod();
        if (!method) throw new PayerError(text('chooseMethod'));
        return currentChoice(method);
      },
      sync,
      finish,
      payerDetails: () => form.payerDetails(),
      beginAttempt: () => {
        clearErrors();
        form.checkFields();
        attemptKeys = {};
      },
      payerError: (message) => new PayerError(message),
      fail,
      setStatus,
      setBusy,
      isBusy: () => busy,
      handOffToTopLevel: (method: ChosenMethod) => {
        window.open(`${returnUrl}#method=${encodeURIComponent(method.value)}`, '_blank', 'noopener');
        setBusy(false);
        setStatus(text('newTab'));
      },
      resumeAttempt: (attempt: ResumedAttempt) => {
        const method = formElement.querySelector<HTMLInputElement>(`input[name="method"][value="${CSS.escape(attempt.method)}"]`);
        const price = document.getElementById(attempt.price);
        if (!method || !(price instanceof HTMLInputElement) || price.name !== 'price') return false;
        price.checked = true;
        method.checked = true;
        refresh();
        const { payment_id, payment_secret, checkout_token, amount, currency } = attempt.reference;
        record = { payment_id, payment_secret, checkout_token, amount, currency };
        recordGateway = gateway;
        setBusy(true);
        setStatus(text('confirming'));
        return true;
      },
    };
  }

  /** Loads the driver of each gateway container and starts it for its gateway. */
  function loadDrivers(): Promise<Array<CheckoutDriver | null>> {
    const containers = [...formElement.querySelectorAll<HTMLElement>('.provider[data-gateway]')];
    return Promise.all(
      containers.map(async (container) => {
        const name = container.dataset.driver ?? '';
        const src = container.dataset.driverSrc ?? '';
        try {
          const create = await loadDriver(name, src);
          const driver = create(driverContext(container));
          drivers.set(container.dataset.gateway ?? '', driver);
          return driver;
        } catch (error) {
          fail(error);
          return null;
        }
      }),
    );
  }

  // --- wiring -----------------------------------------------------------------------------------------

  function methodDriver(method: HTMLInputElement | null): CheckoutDriver | undefined {
    return method ? drivers.get(method.dataset.gateway ?? '') : undefined;
  }

  function refresh(): void {
    const price = form.selectedPrice();
    formElement.querySelectorAll<HTMLElement>('.custom-amount').forEach((label) => {
      label.hidden = !price || label.dataset.for !== price.id;
    });
    const recurring = price && price.dataset.frequency !== 'one-time';
    formElement.querySelectorAll<HTMLInputElement>('input[name="method"]').forEach((input) => {
      input.disabled = Boolean(recurring && input.dataset.oneTimeOnly);
      if (input.disabled && input.checked) input.checked = false;
    });
    let method = form.selectedMethod();
    if (!method) {
      method = formElement.querySelector<HTMLInputElement>('input[name="method"]:not([disabled])');
      if (method) method.checked = true;
    }
    const gateway = method ? method.dataset.gateway : null;
    const driver = methodDriver(method);
    formElement.querySelectorAll<HTMLElement>('.provider').forEach((provider) => {
      provider.hidden = provider.dataset.gateway !== gateway;
    });
    payButton.hidden = Boolean(driver?.ownButtons) || successBox.hidden === false;
    // While its driver loads the button stays usable: a click then says the form is still loading.
    payButton.disabled = !method || Boolean(driver && !driver.pay) || busy;
    updatePayLabel();
    if (driver && method && price) driver.start(currentChoice(method)).catch(fail);
  }

  formElement.addEventListener('change', (event) => {
    const name = (event.target as HTMLInputElement).name;
    if (name === 'price' || name === 'method') refresh();
  });

  formElement.addEventListener('input', (event) => {
    if ((event.target as HTMLInputElement).name !== 'custom_amount') return;
    updatePayLabel();
    const method = form.selectedMethod();
    const price = form.selectedPrice();
    const driver = methodDriver(method);
    // The driver shows what will be charged too (a wallet's sheet names the amount).
    if (driver?.amountChanged && method && price && form.customAmount(price) !== null) driver.amountChanged(currentChoice(method)).catch(fail);
  });

  formElement.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    const method = form.selectedMethod();
    if (!method) return;
    const driver = methodDriver(method);
    if (driver && !driver.pay) return;
    clearErrors();
    setBusy(true);
    // One payment attempt: every creating request of it carries the same keys, so a repeated request creates nothing twice.
    attemptKeys = {};
    try {
      form.checkFields();
      if (!driver?.pay) throw new PayerError(text('stillLoading'));
      await driver.pay(currentChoice(method));
    } catch (error) {
      fail(error);
    }
  });

  element<HTMLButtonElement>('retry-button').addEventListener('click', () => {
    clearErrors();
    setStatus('');
    setBusy(false);
    if (record?.status === 'completed') record = null;
    refresh();
    payButton.focus();
  });

  // --- inside a merchant's page: the frame follows the form's height ----------------------------------

  if (framed && embedOrigins.length > 0 && typeof ResizeObserver === 'function') {
    let lastHeight = 0;
    new ResizeObserver(() => {
      const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === lastHeight) return;
      lastHeight = height;
      // Sent to each allowed origin by name: the browser delivers it only to the one that framed the page.
      for (const origin of embedOrigins) window.parent.postMessage({ type: 'checkout:height', form_id: formId, height }, origin);
    }).observe(document.documentElement);
  }

  // A hand-off from a frame names the method to preselect (`#method=<gateway>:<method>`).
  const preset = /^#method=([\w%:]+)$/.exec(window.location.hash);
  const presetValue = preset ? decodeURIComponent(preset[1]) : '';
  if (/^[\w:]+$/.test(presetValue)) {
    const presetInput = formElement.querySelector<HTMLInputElement>(`input[name="method"][value="${presetValue}"]:not([disabled])`);
    if (presetInput) presetInput.checked = true;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }

  refresh();
  void loadDrivers().then(async (loaded) => {
    refresh();
    // A provider sending the payer back: the first driver that recognises its return handles it.
    for (const driver of loaded) {
      if (!driver?.resume) continue;
      const outcome = await driver.resume().catch((error: unknown) => {
        fail(error);
        return 'handled' as const;
      });
      if (outcome === 'none') continue;
      if (outcome === 'received') {
        payButton.hidden = true;
        setStatus(text('received'));
        statusLine.tabIndex = -1;
        statusLine.focus();
      } else if (outcome === 'not_completed') {
        fail(new PayerError(text('notCompleted')));
      }
      return;
    }
  });
}

const checkoutForm = document.getElementById('checkout-form');
const payButton = document.getElementById('pay-button');
if (checkoutForm instanceof HTMLFormElement && payButton instanceof HTMLButtonElement) startPage(checkoutForm, payButton);
