/*
 * The payer's manage page's card script (`/pay/manage/{token}/subscriptions/{payment_id}/card`;
 * bundled by scripts/build-hosted-page.mjs as the manifest's `manage`). It loads the gateway's
 * card-setup driver named by the container, lets it mount the gateway's element, and on submit has
 * it confirm a new setup; the confirmed setup's id is then posted by the page's own form (a
 * same-origin POST carrying the link's CSRF token), whose answer is the payer's payments page. Its
 * texts, and the driver's, come from the page's catalog in the payer's language (`#page-messages`).
 */
import {
  CARD_SETUP_DRIVER_DEFINED_EVENT,
  type CardSetup,
  type CardSetupDriverDefinition,
  type CardSetupDriverFactory,
  hasText,
  loadMessages,
  pageLocale,
  text,
} from '../../../common/browser-driver/index.js';

class PayerError extends Error {
  readonly payerFacing = true;
}

const nonce = document.currentScript?.nonce ?? '';

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.nonce = nonce;
    script.onload = () => resolve();
    script.onerror = () => reject(new PayerError(text('card.load')));
    document.head.appendChild(script);
  });
}

function loadDriver(name: string, src: string): Promise<CardSetupDriverFactory> {
  return new Promise((resolve, reject) => {
    const listener = (event: Event) => {
      const definition = (event as CustomEvent<CardSetupDriverDefinition>).detail;
      if (definition?.name !== name) return;
      document.removeEventListener(CARD_SETUP_DRIVER_DEFINED_EVENT, listener);
      resolve(definition.create);
    };
    document.addEventListener(CARD_SETUP_DRIVER_DEFINED_EVENT, listener);
    loadScript(src)
      .then(() => reject(new PayerError(text('card.unusable'))))
      .catch(reject)
      .finally(() => document.removeEventListener(CARD_SETUP_DRIVER_DEFINED_EVENT, listener));
  });
}

async function main(): Promise<void> {
  const form = document.getElementById('card-form') as HTMLFormElement | null;
  const container = document.getElementById('card-provider');
  const mount = document.getElementById('card-mount');
  const button = document.getElementById('card-submit') as HTMLButtonElement | null;
  const status = document.getElementById('status');
  if (!form || !container || !mount || !button || !status) return;
  loadMessages(document.getElementById('page-messages'));
  const show = (text: string, failure = false) => {
    status.textContent = text;
    status.className = failure ? 'failure' : '';
  };
  const fail = (error: unknown) => {
    show((error as { payerFacing?: boolean }).payerFacing ? (error as Error).message : text('card.general'), true);
    button.disabled = false;
    status.focus();
  };
  const csrf = form.dataset.csrfToken ?? '';
  try {
    const create = await loadDriver(container.dataset.driver ?? '', container.dataset.driverSrc ?? '');
    const driver = create({
      mount: { element: mount, selector: '#card-mount' },
      libraryUrl: container.dataset.libraryUrl ?? '',
      browserConfig: JSON.parse(container.dataset.browserConfig ?? '{}') as Record<string, string>,
      returnUrl: window.location.origin + window.location.pathname,
      locale: pageLocale(),
      text,
      loadScript,
      payerError: (message) => new PayerError(message),
      async createSetup(): Promise<CardSetup> {
        const answer = await fetch(form.dataset.setupUrl ?? '', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body: '{}' });
        const body = (await answer.json().catch(() => ({}))) as Partial<CardSetup> & { code?: string };
        // An error is told by its code's text in the payer's language (as the hosted page does), never by the API's English message.
        if (!answer.ok || !body.setup_intent || !body.client_secret) throw new PayerError(body.code && hasText(`code.${body.code}`) ? text(`code.${body.code}`) : text('card.notSaved'));
        return { setup_intent: body.setup_intent, client_secret: body.client_secret };
      },
    });
    await driver.start();
    button.disabled = false;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (button.disabled) return;
      button.disabled = true;
      show(text('card.saving'));
      driver.confirm().then((setupIntent) => {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = 'setup_intent';
        input.value = setupIntent;
        const token = document.createElement('input');
        token.type = 'hidden';
        token.name = 'csrf_token';
        token.value = csrf;
        form.append(input, token);
        form.action = form.dataset.cardUrl ?? '';
        form.method = 'post';
        form.submit();
      }, fail);
    });
  } catch (error) {
    fail(error);
  }
}

void main();
