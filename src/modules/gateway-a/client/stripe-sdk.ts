import type StripeSdk from 'stripe';

type Sdk = typeof StripeSdk;
let loaded: Sdk | undefined;

/**
 * Gateway A's SDK, loaded at its first use instead of at boot: an idle service, and every request
 * that never calls the gateway, does without it (about 0.5 s of module loading and 3 MB of heap
 * on this project's machine, docs/benchmarks.md).
 */
export function stripeSdk(): Sdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use on purpose (see above)
  loaded ??= require('stripe') as Sdk;
  return loaded;
}

type SdkErrors = Sdk['errors'];
type SdkErrorKind = 'StripeError' | 'StripeConnectionError' | 'StripeCardError';

/**
 * True when `error` is one of the SDK's errors of `kind`. Before the SDK is loaded no such error
 * can exist, so nothing is loaded to answer false.
 */
export function isStripeError<K extends SdkErrorKind>(error: unknown, kind: K): error is InstanceType<SdkErrors[K]> {
  return loaded !== undefined && error instanceof loaded.errors[kind];
}
