import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedCall } from '../../fakes/gateway-b/index.js';

/**
 * Gateway B's published reference as a checker: PayPal's OpenAPI documents (Orders v2, Payments
 * v2, Customer Disputes v1, Webhooks v1, copied unchanged into `reference/`) plus the RFC 6749 schema of the token
 * endpoint, applied to what the fake recorded. A request must be an operation of the reference
 * (method and path), carry only the header and query parameters it declares (values valid,
 * required ones present), the authentication it names, and a body valid against its request
 * schema; an answer must be valid against the operation's response for that status (or its
 * `default`). The documents' `$ref`s are resolved by Ajv (each document is registered whole).
 */

type Json = Record<string, unknown>;
export type ReferenceDocument = 'orders' | 'payments' | 'disputes' | 'webhooks' | 'token';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  /** JSON pointer of the parameter's schema inside its document. */
  schemaPointer: string;
}

/** One operation of the reference: where it lives, how it is called, where its schemas are. */
export interface ReferenceOperation {
  document: ReferenceDocument;
  operationId: string;
  method: string;
  template: string;
  pattern: RegExp;
  parameters: Parameter[];
  /** `basic` for the token endpoint (RFC 6749 2.3.1), `bearer` for every API operation. */
  authentication: 'basic' | 'bearer';
  requestBody?: { required: boolean; contentType: string; schemaPointer: string };
  /** Status (or `default`) → pointer of the JSON schema of that answer, or null for no body. */
  responses: Record<string, string | null>;
}

/**
 * Headers that belong to HTTP, not to the operation: `fetch` and Node add some of them, and the
 * content negotiation ones are checked separately (Authorization against the operation's
 * security, Content-Type against its request body).
 */
const TRANSPORT_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'authorization',
  'connection',
  'content-length',
  'content-type',
  'host',
  'sec-fetch-mode',
  'transfer-encoding',
  'user-agent',
]);

/** The fake's own pages, which stand in for PayPal's web site and CDN, not its API. */
const FAKE_PAGES = [/^\/checkoutnow$/, /^\/v1\/notifications\/certs\//];

/** Read, not imported: the compiler would type half a megabyte of JSON in every e2e run. */
const readReference = (file: string) => JSON.parse(readFileSync(join(__dirname, 'reference', file), 'utf8')) as Json;

const DOCUMENTS: Record<Exclude<ReferenceDocument, 'token'>, Json> = {
  orders: readReference('paypal-checkout_orders_v2.json'),
  payments: readReference('paypal-payments_payment_v2.json'),
  disputes: readReference('paypal-customer_disputes_v1.json'),
  webhooks: readReference('paypal-notifications_webhooks_v1.json'),
};
const TOKEN_ENDPOINT = readReference('rfc6749-token-endpoint.schema.json');

/** The token endpoint, which PayPal does not describe in OpenAPI: RFC 6749 4.4, 5.1, 5.2. */
const TOKEN_OPERATION: ReferenceOperation = {
  document: 'token',
  operationId: 'oauth2.token (RFC 6749 4.4)',
  method: 'POST',
  template: '/v1/oauth2/token',
  pattern: /^\/v1\/oauth2\/token$/,
  parameters: [],
  authentication: 'basic',
  requestBody: { required: true, contentType: 'application/x-www-form-urlencoded', schemaPointer: '/definitions/client_credentials_request' },
  responses: { '200': '/definitions/access_token_response', '400': '/definitions/error_response', '401': '/definitions/error_response' },
};

/** `~` and `/` escaped for a JSON pointer segment. */
const segment = (value: string) => value.replace(/~/g, '~0').replace(/\//g, '~1');

export class PayPalReference {
  private static loaded?: PayPalReference;
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();
  readonly operations: ReferenceOperation[];

  /** One instance per test file: compiling the schemas it needs takes a few hundred ms. */
  static load(): PayPalReference {
    PayPalReference.loaded ??= new PayPalReference();
    return PayPalReference.loaded;
  }

  private constructor() {
    // The documents are OpenAPI 3.0: their patterns are ECMA-262 regular expressions without the
    // `u` flag, and they use keywords JSON Schema does not know (example, discriminator, ...).
    this.ajv = new Ajv({ strict: false, allErrors: true, verbose: true, validateSchema: false, unicodeRegExp: false });
    addFormats(this.ajv);
    // PayPal's own format names, which the documents use but do not define: the ones whose values
    // the documents constrain elsewhere get that rule (ISO codes, account ids as in `account_id`,
    // RFC 3339 times as in `date_time`); the others are not checked.
    const formats: Record<string, RegExp | true> = {
      ppaas_common_currency_code_v2: /^[A-Z]{3}$/,
      ppaas_common_country_code_v2: /^([A-Z]{2}|C2)$/,
      ppaas_payer_id_v3: /^[2-9A-HJ-NP-Z]{13}$/,
      ppaas_date_time_v3: /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[T,t]([0-1][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)([.][0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$/,
      ppaas_date_notime_v2: /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/,
      ppaas_common_email_address_v2: true,
      merchant_common_email_address_v2: true,
      ppaas_common_language_v3: true,
      ppaas_ip_address_v1: true,
      payer_v1: true,
    };
    for (const [name, format] of Object.entries(formats)) this.ajv.addFormat(name, format);
    for (const [name, document] of Object.entries(DOCUMENTS)) this.ajv.addSchema(document, name);
    this.ajv.addSchema(TOKEN_ENDPOINT, 'token');
    this.operations = [...Object.entries(DOCUMENTS).flatMap(([name, document]) => operationsOf(name as ReferenceDocument, document)), TOKEN_OPERATION];
  }

  /** The operation `method path` is, or undefined when the reference has none. */
  operation(method: string, path: string): ReferenceOperation | undefined {
    return this.operations.find((op) => op.method === method.toUpperCase() && op.pattern.test(path));
  }

  /** Problems of `value` against the schema at `pointer` of `document` (empty when valid). */
  validate(document: ReferenceDocument, pointer: string, value: unknown): string[] {
    const key = `${document}#${pointer}`;
    let validator = this.validators.get(key);
    if (!validator) {
      validator = this.ajv.compile({ $ref: key });
      this.validators.set(key, validator);
    }
    return validator(value) ? [] : describe(validator.errors ?? []);
  }

  /**
   * Whether the schema at `pointer` of `document` has the property at `path` (`a.b[].c`: `[]`
   * steps into `items`), looking through `$ref` and `allOf`, and whether its parent requires it.
   */
  field(document: ReferenceDocument, pointer: string, path: string): { exists: boolean; required: boolean } {
    let nodes = [follow(document, pointer).value as Json];
    let required = false;
    for (const step of path.replace(/\[\]/g, '.[]').split('.')) {
      const expanded = nodes.flatMap((node) => branches(document, node));
      if (step === '[]') {
        nodes = expanded.filter((node) => node.items).map((node) => resolveNode(document, node.items as Json));
        if (nodes.length === 0) return { exists: false, required: false };
        continue;
      }
      const owners = expanded.filter((node) => (node.properties as Json | undefined)?.[step] !== undefined);
      if (owners.length === 0) return { exists: false, required: false };
      required = expanded.some((node) => Array.isArray(node.required) && node.required.includes(step));
      nodes = owners.map((node) => resolveNode(document, (node.properties as Json)[step] as Json));
    }
    return { exists: true, required };
  }

  /** Every problem of the request the fake received, against the operation it calls. */
  checkRequest(call: RecordedCall): string[] {
    const op = this.operation(call.method, call.path);
    if (!op) return [`${call.method} ${call.path} is no operation of the reference`];
    const problems: string[] = [];
    const match = op.pattern.exec(call.path)!;
    const pathParameters = op.parameters.filter((p) => p.in === 'path');
    pathParameters.forEach((parameter, index) => {
      const value = decodeURIComponent(match[index + 1]);
      problems.push(...this.validate(op.document, parameter.schemaPointer, value).map((p) => `path parameter ${parameter.name}${p}`));
    });
    for (const [name, value] of Object.entries(call.query)) {
      const parameter = op.parameters.find((p) => p.in === 'query' && p.name === name);
      if (!parameter) problems.push(`query parameter ${name} is not a parameter of ${op.operationId}`);
      else problems.push(...this.validate(op.document, parameter.schemaPointer, this.queryValue(op.document, parameter.schemaPointer, value)).map((p) => `query parameter ${name}${p}`));
    }
    for (const [name, value] of Object.entries(call.headers)) {
      if (TRANSPORT_HEADERS.has(name)) continue;
      const parameter = op.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === name);
      if (!parameter) problems.push(`header ${name} is not a parameter of ${op.operationId}`);
      else problems.push(...this.validate(op.document, parameter.schemaPointer, value).map((p) => `header ${parameter.name}${p}`));
    }
    for (const parameter of op.parameters.filter((p) => p.required && p.in !== 'path')) {
      const present = parameter.in === 'query' ? parameter.name in call.query : parameter.name.toLowerCase() in call.headers;
      if (!present) problems.push(`required ${parameter.in} parameter ${parameter.name} is missing`);
    }
    if (call.authorization !== op.authentication) problems.push(`authorization is ${call.authorization}, ${op.operationId} takes ${op.authentication}`);
    problems.push(...this.checkRequestBody(op, call));
    return problems.map((p) => `${call.method} ${call.path} request: ${p}`);
  }

  /**
   * A query value as its schema types it: the query string carries text, OpenAPI's `form` style
   * writes an integer or a boolean as its plain literal (`page_size=50`), which is read back as
   * that type (anything else stays text, and the schema refuses it).
   */
  private queryValue(document: ReferenceDocument, pointer: string, value: string): unknown {
    const type = resolveNode(document, follow(document, pointer).value as Json).type;
    if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
    if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
    return value;
  }

  /** Every problem of the answer the fake gave, against the operation's response for that status. */
  checkAnswer(call: RecordedCall): string[] {
    const op = this.operation(call.method, call.path);
    const where = `${call.method} ${call.path} answer ${call.answer?.status ?? '(none)'}`;
    if (!op) return [`${where}: no operation of the reference`];
    if (!call.answer) return [`${where}: nothing was answered`];
    const { status, contentType, raw } = call.answer;
    const key = String(status) in op.responses ? String(status) : 'default';
    if (!(key in op.responses)) return [`${where}: status ${status} is not an answer of ${op.operationId}`];
    const pointer = op.responses[key];
    if (pointer === null) return raw === '' ? [] : [`${where}: ${op.operationId} answers ${status} without a body`];
    if (!/^application\/json\b/i.test(contentType ?? '')) return [`${where}: Content-Type ${contentType ?? '(none)'} is not application/json`];
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return [`${where}: the body is not JSON`];
    }
    return this.validate(op.document, pointer, body).map((p) => `${where} (${key === 'default' ? 'default' : status} of ${op.operationId}):${p}`);
  }

  /**
   * Both checks over a call log: every request, and every answer the fake gave by itself. The
   * fake's own pages are skipped; so is an answer a test wrote itself (`fault: 'body'`, often
   * malformed on purpose) or never sent (a dropped connection).
   */
  check(calls: readonly RecordedCall[]): string[] {
    return calls.filter((call) => !isFakePage(call)).flatMap((call) => [...this.checkRequest(call), ...this.checkAnswerOf(call)]);
  }

  /** The answer check of `check`, for one call (nothing to check for a test-written or dropped answer). */
  checkAnswerOf(call: RecordedCall): string[] {
    if (isFakePage(call) || call.fault === 'body' || call.fault === 'drop') return [];
    if (call.fault === 'status' && this.undescribed(call)) return [];
    return this.checkAnswer(call);
  }

  /**
   * The injected failures the reference has no words for, so there is nothing to hold them to:
   * a 429 (neither PayPal document describes rate limiting; the fake answers the
   * RATE_LIMIT_REACHED body of PayPal's REST API responses page) and a 5xx of the token endpoint
   * (RFC 6749 defines only its 200, 400 and 401 answers). Anything the fake answers by itself is
   * always checked.
   */
  private undescribed(call: RecordedCall): boolean {
    const status = call.answer?.status ?? 0;
    return status === 429 || (call.path === TOKEN_OPERATION.template && status >= 500);
  }

  private checkRequestBody(op: ReferenceOperation, call: RecordedCall): string[] {
    const contentType = call.headers['content-type'];
    const empty = call.rawBody.trim() === '';
    if (!op.requestBody) return empty ? [] : [`${op.operationId} takes no body`];
    if (contentType !== undefined && contentType.split(';')[0].trim().toLowerCase() !== op.requestBody.contentType) {
      return [`Content-Type ${contentType} is not ${op.requestBody.contentType}`];
    }
    if (empty) return op.requestBody.required ? [`${op.operationId} requires a body`] : [];
    if (contentType === undefined) return [`a body without Content-Type (${op.requestBody.contentType})`];
    if (call.body === undefined) return [`the body is not ${op.requestBody.contentType}`];
    return this.validate(op.document, op.requestBody.schemaPointer, call.body).map((p) => `body${p}`);
  }
}

export function isFakePage(call: RecordedCall): boolean {
  return FAKE_PAGES.some((page) => page.test(call.path));
}

/** The operations of one OpenAPI document, with `$ref`ed parameters and responses followed. */
function operationsOf(document: ReferenceDocument, spec: Json): ReferenceOperation[] {
  const operations: ReferenceOperation[] = [];
  for (const [template, item] of Object.entries(spec.paths as Record<string, Json>)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const base = `/paths/${segment(template)}/${method}`;
      const operation = raw as Json;
      const parameters = ((operation.parameters ?? []) as Json[]).map((_, index) => {
        const { value, pointer } = follow(document, `${base}/parameters/${index}`);
        const parameter = value as Json;
        return { name: parameter.name as string, in: parameter.in as Parameter['in'], required: parameter.required === true, schemaPointer: `${pointer}/schema` };
      });
      let requestBody: ReferenceOperation['requestBody'];
      if (operation.requestBody) {
        const { value, pointer } = follow(document, `${base}/requestBody`);
        const content = (value as Json).content as Record<string, unknown>;
        const contentType = Object.keys(content)[0];
        requestBody = { required: (value as Json).required === true, contentType, schemaPointer: `${pointer}/content/${segment(contentType)}/schema` };
      }
      const responses: Record<string, string | null> = {};
      for (const status of Object.keys(operation.responses as Json)) {
        const { value, pointer } = follow(document, `${base}/responses/${segment(status)}`);
        const content = (value as Json).content as Record<string, unknown> | undefined;
        responses[status] = content?.['application/json'] ? `${pointer}/content/application~1json/schema` : null;
      }
      const names = template.match(/\{[^}]+\}/g) ?? [];
      const pattern = new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')).join('([^/]+)')}$`);
      // Path parameters in the order they appear in the path (the regex's groups).
      const pathParameters = names.map((name) => parameters.find((p) => p.in === 'path' && `{${p.name}}` === name)!);
      operations.push({
        document,
        operationId: operation.operationId as string,
        method: method.toUpperCase(),
        template,
        pattern,
        parameters: [...pathParameters, ...parameters.filter((p) => p.in !== 'path')],
        authentication: 'bearer',
        requestBody,
        responses,
      });
    }
  }
  return operations;
}

/** The value at `pointer` of `document`, following a `$ref` there (within the document), and where it ended up. */
function follow(document: ReferenceDocument, pointer: string): { value: unknown; pointer: string } {
  const root = document === 'token' ? TOKEN_ENDPOINT : DOCUMENTS[document];
  let current = pointer;
  for (let hops = 0; hops < 10; hops += 1) {
    const value = current
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (node as Json | undefined)?.[part], root);
    const ref = (value as Json | undefined)?.$ref;
    if (typeof ref !== 'string') return { value, pointer: current };
    if (!ref.startsWith('#/')) throw new Error(`reference ${document}: $ref ${ref} leaves the document`);
    current = ref.slice(1);
  }
  throw new Error(`reference ${document}: $ref chain too long at ${pointer}`);
}

/** A schema node with its `$ref` (within the document) followed. */
function resolveNode(document: ReferenceDocument, node: Json): Json {
  let current = node;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops += 1) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#/')) throw new Error(`reference ${document}: $ref ${ref} leaves the document`);
    current = follow(document, ref.slice(1)).value as Json;
  }
  return current;
}

/** The node and, recursively, the branches of its `allOf` (each resolved). */
function branches(document: ReferenceDocument, node: Json): Json[] {
  const resolved = resolveNode(document, node);
  const all = Array.isArray(resolved.allOf) ? (resolved.allOf as Json[]).flatMap((branch) => branches(document, branch)) : [];
  return [resolved, ...all];
}

/** Ajv's errors, shortened: `anyOf` over PayPal's issue lists explains itself per branch, which is noise. */
function describe(errors: ErrorObject[]): string[] {
  const depth = (e: ErrorObject) => e.schemaPath.split('/').length;
  const lines = [...errors]
    .sort((a, b) => depth(a) - depth(b))
    .filter((e) => !(e.keyword === 'enum' && /\/anyOf\/\d+\//.test(e.schemaPath)))
    .map((e) => {
      const detail =
        e.keyword === 'enum' ? JSON.stringify(e.params.allowedValues) : e.keyword === 'additionalProperties' ? String(e.params.additionalProperty) : JSON.stringify(e.data);
      return ` ${e.instancePath || '/'} ${e.message ?? e.keyword} (${(detail ?? '').slice(0, 240)})`;
    });
  return [...new Set(lines)].slice(0, 8);
}
