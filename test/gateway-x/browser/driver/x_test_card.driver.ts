/*
 * The test-only gateway X's browser driver `x_test_card` (bundled with --test-drivers by
 * scripts/build-hosted-page.mjs; the adapter names it in `hostedCheckout.driver`): the provider's
 * library (the fake's /x.js) mounts a card-number field and turns it into a one-use token, which
 * the slice's route (`routes.charge`, given as data) charges. The page's own Pay button pays.
 */
import { type CheckoutDriver, defineCheckoutDriver, type DriverContext } from '../../../../src/common/browser-driver/index.js';

/** The part of gateway X's library (`window.GatewayX`) the driver uses. */
interface GatewayXLibrary {
  mount(selector: string, publicId: string): void;
  tokenize(): Promise<{ token: string } | { error: { message: string } }>;
}

function xTestCardDriver(context: DriverContext): CheckoutDriver {
  let library: Promise<GatewayXLibrary> | null = null;

  function load(): Promise<GatewayXLibrary> {
    library ??= context.loadScript(context.libraryUrl).then(() => {
      const loaded = (window as Window & { GatewayX?: GatewayXLibrary }).GatewayX;
      if (!loaded) throw context.payerError('The card field could not be loaded. Reload the page and try again.');
      loaded.mount(context.mount.selector, context.browserConfig.client_id ?? '');
      return loaded;
    });
    return library;
  }

  return {
    ownButtons: false,
    async start() {
      await load();
    },
    async pay() {
      const tokenized = await (await load()).tokenize();
      if ('error' in tokenized) throw context.payerError(tokenized.error.message);
      context.setBusy(true);
      const reference = await context.sync();
      await context.api(context.routes.charge, { ...reference, token: tokenized.token }, 'charge');
      await context.finish(reference);
    },
  };
}

defineCheckoutDriver('x_test_card', xTestCardDriver);
