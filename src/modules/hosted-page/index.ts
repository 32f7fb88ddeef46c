import { RequestMethod } from '@nestjs/common';

export { HostedPageModule } from './hosted-page.module.js';
export { hostedPageCsp, renderHostedPage } from './hosted-page.renderer.js';
export { PageBundles } from './page-bundles.js';

/** The script a merchant's page loads to embed a form (docs/hosted-page.md, "Embedding a form"). */
export const EMBED_SCRIPT_PATH = '/pay/embed.js';

/** Where a form's hosted page is, as a URL template (the boot line names it). */
export const HOSTED_PAGE_PATH = '/pay/{form_id}';

/** The page's routes, served outside the REST prefix (bootstrap excludes them from the global prefix). */
export const HOSTED_PAGE_ROUTES: Array<{ path: string; method: RequestMethod }> = [
  { path: 'pay/embed.js', method: RequestMethod.GET },
  { path: 'pay/assets/form.css', method: RequestMethod.GET },
  { path: 'pay/assets/accent/:file', method: RequestMethod.GET },
  { path: 'pay/assets/:file', method: RequestMethod.GET },
  { path: 'pay/:form_id', method: RequestMethod.GET },
];
