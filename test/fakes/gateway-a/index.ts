export { FakeGatewayA, startFakeGatewayA, type InjectedFailure, type OAuthGrant, type RecordedRequest } from './fake-gateway-a.js';
export { type IntentOutcome, type Json } from './fake-resources.js';
export { parseStripeForm, type FormObject, type FormValue } from './form-body.js';
export { buildEvent, signedEvent, signPayload } from './sign-event.js';
