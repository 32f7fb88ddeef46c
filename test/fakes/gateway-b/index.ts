export { type FakeApp, FakeGatewayB, type FakeGatewayBOptions, type FaultRule, type RecordedAnswer, type RecordedCall, startFakeGatewayB } from './fake-gateway-b.js';
export { type FakeDispute, type FakeDisputeOutcome, FakeDisputes, type FakeDisputeStatus, type OpenDisputeOptions } from './fake-disputes.js';
export { FakePayPalError, type PayPalIssue } from './fake-errors.js';
export { type CaptureOverrides, type FakeBuyer, type FakeOrder, type Json, PAYPAL_CURRENCIES, PAYPAL_NO_DECIMAL_CURRENCIES, validateAmount } from './fake-orders.js';
export { rawMemberValue } from './json-member.js';
export { createSigningIdentity, type SigningIdentity } from './self-signed-cert.js';
export {
  AUTH_ALGO,
  bodyCrc32,
  buildEvent,
  captureCompletedEvent,
  customerDisputeEvent,
  type EventOptions,
  signedMessage,
  signTransmission,
  TRANSMISSION_HEADERS,
  type TransmissionHeaders,
  verifyTransmission,
} from './webhook-signing.js';
