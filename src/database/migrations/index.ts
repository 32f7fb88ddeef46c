import { CreateHostSlice1764115200000 } from './1764115200000-CreateHostSlice.js';
import { CreateCheckoutTables1764115300000 } from './1764115300000-CreateCheckoutTables.js';
import { CreatePaymentForms1764115400000 } from './1764115400000-CreatePaymentForms.js';
import { CreatePages1764115500000 } from './1764115500000-CreatePages.js';
import { CreateGatewayAConnectTables1764115700000 } from './1764115700000-CreateGatewayAConnectTables.js';
import { CreateWebhookSubscriptionStates1764115850000 } from './1764115850000-CreateWebhookSubscriptionStates.js';
import { AddPaymentSetupAmount1764115900000 } from './1764115900000-AddPaymentSetupAmount.js';
import { AddWebhookEventClaims1764116000000 } from './1764116000000-AddWebhookEventClaims.js';
import { AllowWebhookEventsWithoutMode1764116200000 } from './1764116200000-AllowWebhookEventsWithoutMode.js';

/** Every migration, oldest first. Add new ones at the end; never edit one that has landed. */
export const MIGRATIONS = [
  CreateHostSlice1764115200000,
  CreateCheckoutTables1764115300000,
  CreatePaymentForms1764115400000,
  CreatePages1764115500000,
  CreateGatewayAConnectTables1764115700000,
  CreateWebhookSubscriptionStates1764115850000,
  AddPaymentSetupAmount1764115900000,
  AddWebhookEventClaims1764116000000,
  AllowWebhookEventsWithoutMode1764116200000,
];
