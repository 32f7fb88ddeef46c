import { RequestMethod } from '@nestjs/common';

export { PayerManageModule } from './payer-manage.module.js';
export { PAYER_LINK_EMAILS_TOPIC } from './payer-link-emails.js';

/** Where a payer manages their payments, as a URL template (docs/decisions.md §22). */
export const PAYER_MANAGE_PAGE_PATH = '/pay/manage/{token}';

/** The page's routes, served outside the REST prefix (bootstrap excludes them from the global prefix). */
export const PAYER_MANAGE_ROUTES: Array<{ path: string; method: RequestMethod }> = [
  { path: 'pay/manage', method: RequestMethod.GET },
  { path: 'pay/manage/link', method: RequestMethod.POST },
  { path: 'pay/manage/:token', method: RequestMethod.GET },
  { path: 'pay/manage/:token/link', method: RequestMethod.POST },
  { path: 'pay/manage/:token/receipts/:payment_id', method: RequestMethod.GET },
  { path: 'pay/manage/:token/subscriptions/:payment_id/cancel', method: RequestMethod.GET },
  { path: 'pay/manage/:token/subscriptions/:payment_id/cancel', method: RequestMethod.POST },
  { path: 'pay/manage/:token/subscriptions/:payment_id/card', method: RequestMethod.GET },
  { path: 'pay/manage/:token/subscriptions/:payment_id/card', method: RequestMethod.POST },
  { path: 'pay/manage/:token/subscriptions/:payment_id/card/setup', method: RequestMethod.POST },
];
