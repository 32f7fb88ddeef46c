import request from 'supertest';
import { createValidationPipe } from '../../src/common/validation/index.js';
import { GenericWebhookEnvelopeDto } from '../../src/modules/webhooks/generic/generic-webhook.dto.js';
import { type FakeGatewayA, startFakeGatewayA } from '../fakes/gateway-a/index.js';
import { type FakeGatewayB, startFakeGatewayB } from '../fakes/gateway-b/index.js';
import { connectGateway, referenceOf, type SyncAnswer } from '../support/payment-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Swagger UI's "Try it out" pre-fills a request body with its first `examples` entry (or
 * `example`). Every operation with a JSON body must carry one, and sending it as it is must get
 * past the route's body validation: any answer but a 400 of body validation is fine here (a
 * missing record, a state conflict, a refused payment reference, an unreachable provider).
 */

type Json = Record<string, unknown>;
type MediaType = { schema?: Json; example?: unknown; examples?: Record<string, { value?: unknown }> };
type Operation = { operationId: string; security?: Array<Record<string, unknown>>; requestBody?: { content: Record<string, MediaType> } };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, { required?: string[]; properties?: Json }> } };
type BodyOperation = { path: string; method: string; operation: Operation; example: unknown };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
/** The codes of a refused body (src/common/validation/validation.pipe.ts, src/common/http/body-parsers.ts). */
const BODY_VALIDATION_CODES = ['rest_invalid_param', 'rest_missing_callback_param', 'rest_invalid_json'];

/**
 * Signed webhooks: the signature covers the raw bytes, so an example sent from Swagger UI is
 * refused before its body is read. Their examples must still exist and be well-formed events
 * (checked below against the schema's required fields and, where the route has one, its body DTO).
 */
const SIGNED_WEBHOOKS: Record<string, (new () => object) | null> = {
  webhookReceive: GenericWebhookEnvelopeDto,
  // Parsed from the verified raw bytes by the webhook intake, not by a body DTO.
  webhookGatewayACallback: null,
  webhookGatewayBCallback: null,
};

/** Run after every other operation: each changes state the others rely on (connection, mode, installed version). */
const LAST = ['paymentGatewaySetMode', 'paymentGatewaySaveSettings', 'gatewayConfigure', 'paymentGatewayDisconnect', 'pluginInstall', 'pluginActivate', 'pluginUpdate'];

function firstExample(body: MediaType): unknown {
  const first = Object.values(body.examples ?? {})[0];
  return first ? first.value : body.example;
}

function bodyOperations(document: Document): BodyOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method, operation]) => METHODS.includes(method) && operation.requestBody?.content['application/json'])
      .map(([method, operation]) => ({ path, method, operation, example: firstExample(operation.requestBody!.content['application/json']) })),
  );
}

/** The body of a `@PaymentReferenceRoute()`: its schema has the reference fields of PaymentReferenceDto. */
function isReferenceRoute(o: BodyOperation, document: Document): boolean {
  const ref = (o.operation.requestBody!.content['application/json'].schema as { $ref?: string }).$ref ?? '';
  const properties = document.components.schemas[ref.split('/').pop()!]?.properties ?? {};
  return ['payment_id', 'payment_secret', 'checkout_token'].every((name) => name in properties);
}

describe('request body examples in the OpenAPI document work as they are (Swagger UI pre-fills them)', () => {
  let t: TestApp;
  let fakeA: FakeGatewayA;
  let fakeB: FakeGatewayB;
  let document: Document;
  let formId: number;
  beforeAll(async () => {
    fakeA = await startFakeGatewayA();
    fakeB = await startFakeGatewayB({ environment: 'sandbox' });
    t = await startTestApp({
      CHECKOUT_PROXY_URL: fakeA.url,
      GATEWAY_A_API_BASE: fakeA.url,
      GATEWAY_B_API_BASE_TEST: fakeB.url,
      GATEWAY_B_API_BASE_LIVE: fakeB.url,
      GATEWAY_TIMEOUT_MS: '1000',
      RECONCILE_INTERVAL_SECONDS: '0',
    });
    const res = await request(t.http).get('/docs-json');
    expect(res.status).toBe(200);
    document = res.body as Document;
    // Form 1 of a fresh site (the id the examples name), created and published through the API
    // with the formsCreate example, so that settings overrides (live preview) merge with real ones.
    const create = document.paths['/administration/payment-forms'].post.requestBody!.content['application/json'];
    const created = await request(t.http).post(`${t.base}/administration/payment-forms`).set('Authorization', t.admin.auth).send(firstExample(create) as object);
    expect(created.status).toBe(201);
    formId = (created.body as { id: number }).id;
    expect(formId).toBe(1);
    await request(t.http).put(`${t.base}/administration/payment-forms/${formId}`).set('Authorization', t.admin.auth).send({ status: 'publish' }).expect(200);
    await connectGateway(t, 'gateway_a');
    await connectGateway(t, 'gateway_b');
  });
  afterAll(async () => {
    await t?.close();
    await fakeA?.stop();
    await fakeB?.stop();
  });

  it('gives every operation with a JSON body an example', () => {
    const operations = bodyOperations(document);
    expect(operations.length).toBeGreaterThan(20);
    expect(operations.filter((o) => o.example === undefined).map((o) => `${o.method.toUpperCase()} ${o.path}`)).toEqual([]);
  });

  it('gives the signed webhooks examples with every required field, which the body DTO (when the route has one) accepts', async () => {
    const byId = new Map(bodyOperations(document).map((o) => [o.operation.operationId, o]));
    const schemas = document.components.schemas;
    for (const [operationId, dto] of Object.entries(SIGNED_WEBHOOKS)) {
      const o = byId.get(operationId)!;
      const example = o.example as Json;
      expect({ operationId, example: typeof example }).toEqual({ operationId, example: 'object' });
      const ref = (o.operation.requestBody!.content['application/json'].schema as { $ref: string }).$ref;
      const required = schemas[ref.split('/').pop()!].required ?? [];
      expect({ operationId, missing: required.filter((name) => !(name in example)) }).toEqual({ operationId, missing: [] });
      // The generic webhook's handler takes the DTO through the global pipe (after the signature check).
      if (dto) await expect(createValidationPipe().transform(example, { type: 'body', metatype: dto })).resolves.toBeDefined();
    }
  });

  it('gets every example past the body validation of its route', async () => {
    const operations = bodyOperations(document)
      .filter((o) => !(o.operation.operationId in SIGNED_WEBHOOKS))
      .sort((a, b) => LAST.indexOf(a.operation.operationId) - LAST.indexOf(b.operation.operationId));
    expect(operations.length).toBeGreaterThan(20);

    const refused: Array<{ operation: string; status: number; body: unknown }> = [];
    const send = async (o: BodyOperation, body: unknown, label = '') => {
      const path = o.path.replace(/\{[^}]+\}/g, String(formId));
      let call = request(t.http)[o.method as 'post'](`${t.base}${path}`);
      if (o.operation.security?.some((s) => 'application_password' in s)) call = call.set('Authorization', t.admin.auth);
      const res = await call.send(body as object);
      const code = (res.body as { code?: string } | undefined)?.code;
      if (res.status === 400 && code && BODY_VALIDATION_CODES.includes(code) && !isUnresolvedName(res.body)) refused.push({ operation: `${o.operation.operationId}${label}`, status: res.status, body: res.body });
      return res;
    };

    for (const o of operations) {
      if (o.example === undefined) {
        refused.push({ operation: o.operation.operationId, status: 0, body: 'no example' });
        continue;
      }
      await send(o, o.example);
      if (isReferenceRoute(o, document)) {
        // The reference guard refuses the example's placeholder reference before the route's own
        // DTO is validated: send the example again with the reference of a real payment.
        const example = o.example as Json;
        const gateway = example.payment_gateway === 'gateway_b' ? 'gateway_b' : 'gateway_a';
        const method = typeof example.payment_method === 'string' ? example.payment_method : 'ccard';
        const sync = await request(t.http)
          .post(`${t.base}/payment/sync-details`)
          .send({ form_id: formId, payment_gateway: gateway, payment_method: method, plan_index: 0, price_index: 0, email_address: 'payer@example.com' });
        expect({ operation: o.operation.operationId, status: sync.status }).toEqual({ operation: o.operation.operationId, status: 201 });
        const res = await send(o, { ...example, ...referenceOf(sync.body as SyncAnswer, formId, gateway, method) }, ' (with a real reference)');
        expect({ operation: o.operation.operationId, status: res.status }).not.toEqual({ operation: o.operation.operationId, status: 403 });
      }
    }
    expect(refused).toEqual([]);
  });
});

/**
 * An outgoing-webhook URL is refused when its name does not resolve, and the tests run without
 * DNS: the example passed every rule of its body and only the lookup of its (public) name failed.
 */
function isUnresolvedName(body: unknown): boolean {
  const params = (body as { data?: { params?: Record<string, string> } }).data?.params ?? {};
  const keys = Object.keys(params);
  return keys.length === 1 && keys[0] === 'url' && /does not resolve$/.test(params.url);
}
