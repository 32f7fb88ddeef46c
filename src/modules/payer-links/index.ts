export { PayerLinksModule } from './payer-links.module.js';
export { PAYER_LINK_ACTION_MAX_AGE_MS, PAYER_LINK_MAX_AGE_MS, PAYER_LINK_VERSION_OPTION, PAYER_MANAGE_PATH, PayerLinks } from './payer-links.service.js';
