import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { RecordedRequest } from '../../fakes/gateway-a/index.js';

/**
 * Gateway A's reference at the pinned API version (schemas generated from the `stripe` package's
 * type declarations, ./schemas/README.md) and the checks that hold the fake's answers and the
 * service's requests to it.
 */
export interface ReferenceOperation {
  operation: string;
  method: string;
  /** e.g. `/v1/payment_intents/{id}/cancel` */
  path: string;
  params: object;
  answer: object;
}

export interface ReferenceSource {
  generated_by: string;
  from: string;
  sdk_version: string;
  api_version: string;
  openapi_version: string;
}

interface ObjectsSchema {
  'x-source': ReferenceSource;
  properties: Record<string, { $ref: string }>;
  $defs: Record<string, JsonSchema>;
}

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  $ref?: string;
  const?: unknown;
  enum?: unknown[];
  additionalProperties?: boolean | JsonSchema;
}

const read = <T>(file: string): T => JSON.parse(readFileSync(join(__dirname, 'schemas', file), 'utf8')) as T;
const objectsSchema = read<ObjectsSchema>('objects.schema.json');
const requestsSchema = read<object>('requests.schema.json');
const operationsDocument = read<{ 'x-source': ReferenceSource; operations: ReferenceOperation[] }>('operations.json');

export const reference = {
  source: operationsDocument['x-source'],
  operations: operationsDocument.operations,
  objects: objectsSchema,
};

/** The provider objects described in full, by their schema name (`PaymentIntent`, `Invoice`, `EventBase`…). */
export type ReferenceObject =
  | 'Account'
  | 'Balance'
  | 'Customer'
  | 'DeletedCustomer'
  | 'Product'
  | 'Price'
  | 'PaymentIntent'
  | 'SetupIntent'
  | 'Subscription'
  | 'SubscriptionItem'
  | 'Invoice'
  | 'InvoiceLineItem'
  | 'InvoicePayment'
  | 'Refund'
  | 'Dispute'
  | 'Charge'
  | 'WebhookEndpoint'
  | 'DeletedWebhookEndpoint'
  | 'EventBase'
  | 'OAuthToken'
  | 'ErrorBody';

// The schemas are generated (and checked by the generator's own run); skipping the meta-schema
// check of 900 KB of them saves a second per process.
const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(objectsSchema);
ajv.addSchema(requestsSchema);

const compiled = new Map<string, ValidateFunction>();
function validator(key: string, schema: () => object): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema());
    compiled.set(key, validate);
  }
  return validate;
}

function problems(validate: ValidateFunction, value: unknown, where: string): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).filter(relevant).map((error) => `${where}${error.instancePath || ''}: ${describe(error)}`);
}

/** An `anyOf` failure repeats what its branches said; keep the branches' own words. */
function relevant(error: ErrorObject, _index: number, all: ErrorObject[]): boolean {
  return error.keyword !== 'anyOf' || all.length === 1;
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return `has ${String(error.params.additionalProperty)}, which the reference lacks`;
  if (error.keyword === 'required') return `lacks ${String(error.params.missingProperty)}, which the reference requires`;
  if (error.keyword === 'const') return `must be ${JSON.stringify(error.params.allowedValue)}`;
  if (error.keyword === 'enum') return `must be one of ${JSON.stringify(error.params.allowedValues)}`;
  return error.message ?? error.keyword;
}

/** The operation a request names (method and path template), if the reference has it. */
export function operationOf(method: string, path: string): ReferenceOperation | undefined {
  return reference.operations.find((op) => op.method === method && pathPattern(op.path).test(path));
}

function pathPattern(template: string): RegExp {
  return new RegExp(`^${template.replace(/\{id\}/g, '[A-Za-z0-9_]+')}$`);
}

/** Problems with `value` as the reference object `name` (e.g. `PaymentIntent`); none: it conforms. */
export function objectProblems(name: ReferenceObject, value: unknown): string[] {
  return problems(
    validator(`object:${name}`, () => ({ $ref: `gateway-a-objects${objectsSchema.properties[name].$ref}` })),
    value,
    name,
  );
}

/** The object schema an event's `data.object` must follow, by the event type's prefix. */
const EVENT_OBJECTS: Array<[RegExp, ReferenceObject]> = [
  [/^payment_intent\./, 'PaymentIntent'],
  [/^setup_intent\./, 'SetupIntent'],
  [/^invoice\./, 'Invoice'],
  [/^customer\.subscription\./, 'Subscription'],
  [/^charge\.dispute\./, 'Dispute'],
  [/^(charge\.refund\.updated$|refund\.)/, 'Refund'],
];

/** Problems with an event as the gateway delivers it: the envelope, and its object by type. */
export function eventProblems(event: unknown): string[] {
  const found = objectProblems('EventBase', event);
  const type = (event as { type?: unknown })?.type;
  const object = (event as { data?: { object?: unknown } })?.data?.object;
  const kind = typeof type === 'string' ? EVENT_OBJECTS.find(([pattern]) => pattern.test(type))?.[1] : undefined;
  if (kind) found.push(...objectProblems(kind, object).map((problem) => `data.object ${problem}`));
  return found;
}

/**
 * Problems with a request the fake received: an operation the reference has (method + path),
 * its parameters (names, types, enums, required ones) in the form encoding, parameters in the
 * place the SDK puts them (the body of a POST, the query otherwise), the pinned API version.
 */
export function requestProblems(record: RecordedRequest, apiVersion = reference.source.api_version): string[] {
  const where = `${record.method} ${record.path}`;
  // The browser's visit to the OAuth page is no API request.
  if (record.path === '/oauth/authorize') return [];
  const op = operationOf(record.method, record.path);
  if (!op) return [`${where}: no such operation in the reference (or not one this project uses)`];
  const found: string[] = [];
  // The token exchange is a plain form post (the service makes it without the SDK).
  if (record.stripeVersion !== apiVersion && op.operation !== 'oauth.token') found.push(`${where}: Stripe-Version ${String(record.stripeVersion)} is not the pinned ${apiVersion}`);
  const [params, elsewhere] = record.method === 'POST' ? [record.body, record.query] : [record.query, record.body];
  if (Object.keys(elsewhere).length) found.push(`${where}: parameters in the ${record.method === 'POST' ? 'query' : 'body'}: ${Object.keys(elsewhere).join(', ')}`);
  found.push(...problems(validator(`params:${op.operation}`, () => op.params), params, `${where} params`));
  return found;
}

const errorEnvelope = {
  type: 'object',
  properties: { error: { $ref: 'gateway-a-objects#/$defs/ErrorBody' } },
  required: ['error'],
  additionalProperties: false,
};

/** Problems with the fake's answer to a request: the operation's answer object, or the error body. */
export function answerProblems(record: RecordedRequest): string[] {
  const where = `${record.method} ${record.path} → ${String(record.status)}`;
  if (record.status === undefined) return [`${where}: never answered`];
  if (record.path === '/oauth/authorize') return [];
  // OAuth errors are `{error, error_description}` (RFC 6749), which the declarations do not describe.
  if (record.path === '/oauth/token' && record.status !== 200) return [];
  if (record.status >= 400) return problems(validator('error', () => errorEnvelope), record.answer, `${where} error`);
  const op = operationOf(record.method, record.path);
  if (!op) return [`${where}: no such operation in the reference`];
  return problems(validator(`answer:${op.operation}`, () => op.answer), record.answer, `${where} answer`);
}

/** Every problem of a list of recorded exchanges (requests and answers). */
export function exchangeProblems(records: RecordedRequest[]): string[] {
  return records.flatMap((record) => [...requestProblems(record), ...answerProblems(record)]);
}
