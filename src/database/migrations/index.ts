import { CreateHostSlice1764115200000 } from './1764115200000-CreateHostSlice.js';
import { CreateCheckoutTables1764115300000 } from './1764115300000-CreateCheckoutTables.js';
import { CreatePaymentForms1764115400000 } from './1764115400000-CreatePaymentForms.js';
import { CreatePages1764115500000 } from './1764115500000-CreatePages.js';
import { CreateGatewayAConnectTables1764115700000 } from './1764115700000-CreateGatewayAConnectTables.js';
import { CreateWebhookSubscriptionStates1764115850000 } from './1764115850000-CreateWebhookSubscriptionStates.js';
import { AddPaymentSetupAmount1764115900000 } from './1764115900000-AddPaymentSetupAmount.js';
import { AddWebhookEventClaims1764116000000 } from './1764116000000-AddWebhookEventClaims.js';
import { AddFormSourceTemplate1764116100000 } from './1764116100000-AddFormSourceTemplate.js';
import { CreateNotificationDismissals1764116110000 } from './1764116110000-CreateNotificationDismissals.js';
import { CreateTagAssignments1764116120000 } from './1764116120000-CreateTagAssignments.js';
import { AllowWebhookEventsWithoutMode1764116200000 } from './1764116200000-AllowWebhookEventsWithoutMode.js';
import { AddPaymentListIndexes1764116300000 } from './1764116300000-AddPaymentListIndexes.js';
import { WidenWebhookEventType1764116310000 } from './1764116310000-WidenWebhookEventType.js';
import { CreateConsoleSessions1764116320000 } from './1764116320000-CreateConsoleSessions.js';
import { CreateOutbox1764116330000 } from './1764116330000-CreateOutbox.js';
import { CreateIdempotencyKeys1764116400000 } from './1764116400000-CreateIdempotencyKeys.js';
import { IndexNewestByCreationTime1764116450000 } from './1764116450000-IndexNewestByCreationTime.js';
import { KeyProviderRefsWithoutNulls1764116500000 } from './1764116500000-KeyProviderRefsWithoutNulls.js';
import { AddPaymentFailureReason1764116510000 } from './1764116510000-AddPaymentFailureReason.js';
import { CreateRefundLedger1764116520000 } from './1764116520000-CreateRefundLedger.js';
import { GrantRefundCapability1764116530000 } from './1764116530000-GrantRefundCapability.js';
import { GrantSubscriptionCancelCapability1764116900000 } from './1764116900000-GrantSubscriptionCancelCapability.js';
import { CreatePaymentDisputes1764116910000 } from './1764116910000-CreatePaymentDisputes.js';
import { IndexPaymentChargeRef1764116920000 } from './1764116920000-IndexPaymentChargeRef.js';
import { CreateOutgoingWebhooks1764116930000 } from './1764116930000-CreateOutgoingWebhooks.js';
import { AddSubscriptionCancelSchedule1764116940000 } from './1764116940000-AddSubscriptionCancelSchedule.js';
import { CreateAccountCredentials1764117000000 } from './1764117000000-CreateAccountCredentials.js';
import { SeedTeamRoles1764117200000 } from './1764117200000-SeedTeamRoles.js';
import { AddUserLastSignIn1764117210000 } from './1764117210000-AddUserLastSignIn.js';
import { AddSecretKeyIds1764118000000 } from './1764118000000-AddSecretKeyIds.js';
import { AddPaymentCard1764119000000 } from './1764119000000-AddPaymentCard.js';
import { CreatePaymentSearchTerms1764300000000 } from './1764300000000-CreatePaymentSearchTerms.js';
import { IndexPaymentFormByCreation1764300000100 } from './1764300000100-IndexPaymentFormByCreation.js';
import { AddPaymentLocale1764310000000 } from './1764310000000-AddPaymentLocale.js';
import { AddUserConsoleLocale1764320000000 } from './1764320000000-AddUserConsoleLocale.js';
import { IndexReconciliationSweeps1764330000000 } from './1764330000000-IndexReconciliationSweeps.js';
import { CoverDashboardLedger1764340000000 } from './1764340000000-CoverDashboardLedger.js';

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
  AddFormSourceTemplate1764116100000,
  CreateNotificationDismissals1764116110000,
  CreateTagAssignments1764116120000,
  AllowWebhookEventsWithoutMode1764116200000,
  AddPaymentListIndexes1764116300000,
  WidenWebhookEventType1764116310000,
  CreateConsoleSessions1764116320000,
  CreateOutbox1764116330000,
  CreateIdempotencyKeys1764116400000,
  IndexNewestByCreationTime1764116450000,
  KeyProviderRefsWithoutNulls1764116500000,
  AddPaymentFailureReason1764116510000,
  CreateRefundLedger1764116520000,
  GrantRefundCapability1764116530000,
  GrantSubscriptionCancelCapability1764116900000,
  CreatePaymentDisputes1764116910000,
  IndexPaymentChargeRef1764116920000,
  CreateOutgoingWebhooks1764116930000,
  AddSubscriptionCancelSchedule1764116940000,
  CreateAccountCredentials1764117000000,
  SeedTeamRoles1764117200000,
  AddUserLastSignIn1764117210000,
  AddSecretKeyIds1764118000000,
  AddPaymentCard1764119000000,
  CreatePaymentSearchTerms1764300000000,
  IndexPaymentFormByCreation1764300000100,
  AddPaymentLocale1764310000000,
  AddUserConsoleLocale1764320000000,
  IndexReconciliationSweeps1764330000000,
  CoverDashboardLedger1764340000000,
];
