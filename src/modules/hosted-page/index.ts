import { RequestMethod } from '@nestjs/common';
import type { RouteInfo } from '@nestjs/common/interfaces';

export { HostedPageModule } from './hosted-page.module.js';
export { hostedPageCsp, renderHostedPage } from './hosted-page.renderer.js';

/** The page's routes, served outside the REST prefix (bootstrap excludes them from the global prefix). */
export const HOSTED_PAGE_ROUTES: RouteInfo[] = [
  { path: 'pay/assets/hosted-page.js', method: RequestMethod.GET },
  { path: 'pay/assets/form.css', method: RequestMethod.GET },
  { path: 'pay/assets/accent/:file', method: RequestMethod.GET },
  { path: 'pay/:form_id', method: RequestMethod.GET },
];
