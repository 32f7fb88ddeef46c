import { Module } from '@nestjs/common';
import { FormViewModule } from '../form-view/index.js';
import { HostedPageController } from './hosted-page.controller.js';
import { PageBundles, pageBundleDirectory } from './page-bundles.js';

/**
 * The hosted payment page (`/pay/{form_id}`): a published form rendered on the server from the
 * form-view read model and renderer, whose script pays through the public REST routes like any
 * client. It reaches gateways only through the read model (the port's facts); it imports no
 * gateway slice: each slice's browser driver is a bundle of its own, which the page script loads
 * by the name the adapter gives (`hostedCheckout.driver`).
 */
@Module({
  imports: [FormViewModule],
  controllers: [HostedPageController],
  // The built scripts (dist/pay/), read once at start.
  providers: [{ provide: PageBundles, useFactory: () => PageBundles.load(pageBundleDirectory()) }],
  // The payer's manage page serves its card script and the slices' card drivers from the same build.
  exports: [PageBundles],
})
export class HostedPageModule {}
