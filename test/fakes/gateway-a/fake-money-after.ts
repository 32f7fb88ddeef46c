import { FakeStripeError, int, invalidParam, noSuch, obj, onlyParams, str, strList } from './fake-errors.js';
import type { FakeAccount, FakeResources, Json } from './fake-resources.js';
import { fakeId } from './fake-resources.js';
import type { FormObject } from './form-body.js';

const now = () => Math.floor(Date.now() / 1000);

/** Dispute statuses after which the dispute is settled. */
const CLOSED_DISPUTE = new Set(['won', 'lost', 'warning_closed', 'prevented']);

interface Kept {
  account: string;
  data: Json;
}

/**
 * What happens to a payment after it was taken, as the provider's dashboard does it (a refund, a
 * chargeback) and as the API reads it back: `GET /v1/refunds[/{id}]`, `GET /v1/disputes[/{id}]`
 * and `GET /v1/events` (newest first, filters `types[]` and `created`, paged by `starting_after`),
 * with the objects' shapes at the pinned API version. Every change records the event the provider
 * would create (`charge.refunded` + `refund.created`, `charge.refund.updated`, `charge.dispute.*`).
 */
export class FakeMoneyAfter {
  private readonly disputes = new Map<string, Kept>();
  private readonly events: Kept[] = [];

  constructor(private readonly resources: FakeResources) {}

  // --- test control: the dashboard --------------------------------------------------------------

  /** A refund made in the provider's dashboard (or through the API by anyone): succeeded unless told. */
  dashboardRefund(paymentIntentId: string, options: { amount?: number; status?: string; reason?: string | null; metadata?: Record<string, string>; created?: number } = {}): Json {
    const { intent, account } = this.intent(paymentIntentId);
    const left = (intent.amount_received as number) - this.refundedOf(paymentIntentId);
    const amount = options.amount ?? left;
    if (amount < 1 || amount > left) throw new Error(`cannot refund ${amount} of ${paymentIntentId}: ${left} left`);
    const refund: Json = {
      id: fakeId('re'),
      object: 'refund',
      amount,
      balance_transaction: fakeId('txn'),
      charge: intent.latest_charge,
      created: options.created ?? now(),
      currency: intent.currency,
      customer: intent.customer ?? null,
      customer_account: null,
      metadata: options.metadata ?? {},
      payment_intent: paymentIntentId,
      payment_method: null,
      reason: options.reason ?? 'requested_by_customer',
      receipt_number: null,
      source_transfer_reversal: null,
      status: options.status ?? 'succeeded',
      transfer_reversal: null,
    };
    this.resources.adopt('refund', account, refund);
    this.recordRefund(account, intent, refund);
    return refund;
  }

  /** `POST /v1/refunds` (FakeResources.createRefund), recording the events the provider creates with it. */
  createRefund(account: FakeAccount, body: FormObject): Json {
    const refund = this.resources.createRefund(account, body);
    this.recordRefund(account.id, this.resources.get(refund.payment_intent as string) as Json, refund);
    return refund;
  }

  private recordRefund(account: string, intent: Json, refund: Json): void {
    this.record(account, 'charge.refunded', this.chargeOf(intent), refund.created as number);
    this.record(account, 'refund.created', refund, refund.created as number);
  }

  /** A refund's later change of status (a pending one settles or fails; a succeeded one can fail later, e.g. a closed card account), with the gateway's `failure_reason` for a failed one. */
  setRefundStatus(refundId: string, status: string, failureReason?: string): Json {
    const refund = this.resources.get(refundId);
    const account = this.resources.accountOf(refundId);
    if (!refund || !account || refund.object !== 'refund') throw new Error(`No refund ${refundId}`);
    refund.status = status;
    if (failureReason !== undefined) refund.failure_reason = failureReason;
    this.record(account, 'charge.refund.updated', refund);
    return refund;
  }

  /** A chargeback opened by the payer's bank: `needs_response` with its evidence due date. */
  openDispute(paymentIntentId: string, options: { amount?: number; reason?: string; status?: string; dueBy?: number; created?: number } = {}): Json {
    const { intent, account } = this.intent(paymentIntentId);
    const created = options.created ?? now();
    const dispute: Json = {
      id: fakeId('du'),
      object: 'dispute',
      amount: options.amount ?? intent.amount_received,
      balance_transactions: [],
      charge: intent.latest_charge,
      created,
      currency: intent.currency,
      enhanced_eligibility_types: [],
      evidence: disputeEvidence(),
      evidence_details: { due_by: options.dueBy ?? created + 7 * 86400, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0, submission_method: 'not_submitted' },
      intended_submission_method: null,
      is_charge_refundable: false,
      livemode: intent.livemode,
      metadata: {},
      payment_intent: paymentIntentId,
      reason: options.reason ?? 'fraudulent',
      status: options.status ?? 'needs_response',
    };
    this.disputes.set(dispute.id as string, { account, data: dispute });
    this.record(account, 'charge.dispute.created', dispute, created);
    if (dispute.status === 'needs_response' || dispute.status === 'warning_needs_response') this.record(account, 'charge.dispute.funds_withdrawn', dispute, created);
    return dispute;
  }

  /** The dispute moves on (`under_review`, then `won` or `lost`): `charge.dispute.updated` or `.closed`. */
  setDisputeStatus(disputeId: string, status: string): Json {
    const kept = this.disputes.get(disputeId);
    if (!kept) throw new Error(`No dispute ${disputeId}`);
    kept.data.status = status;
    this.record(kept.account, CLOSED_DISPUTE.has(status) ? 'charge.dispute.closed' : 'charge.dispute.updated', kept.data);
    if (status === 'won') this.record(kept.account, 'charge.dispute.funds_reinstated', kept.data);
    return kept.data;
  }

  /** Every event recorded, oldest first (test access). */
  recordedEvents(): Json[] {
    return this.events.map((kept) => kept.data);
  }

  // --- the API ----------------------------------------------------------------------------------

  /** `GET /v1/refunds`: filters `payment_intent`, `charge`; newest first, `limit` 1..100 (10), `starting_after`. */
  listRefunds(account: FakeAccount, query: FormObject): Json {
    onlyParams(query, ['payment_intent', 'charge', 'created', 'limit', 'starting_after', 'ending_before']);
    const intent = str(query, 'payment_intent');
    const charge = str(query, 'charge');
    if (intent !== undefined && !this.resources.get(intent)) throw noSuch('payment_intent', intent, 'payment_intent');
    return this.page(this.refundStore(), account, '/v1/refunds', query, (refund) => (intent === undefined || refund.payment_intent === intent) && (charge === undefined || refund.charge === charge));
  }

  retrieveRefund(account: FakeAccount, id: string): Json {
    return this.find(this.refundStore(), 'refund', account, id);
  }

  /** `GET /v1/disputes`: filters `payment_intent`, `charge`; newest first. */
  listDisputes(account: FakeAccount, query: FormObject): Json {
    onlyParams(query, ['payment_intent', 'charge', 'created', 'limit', 'starting_after', 'ending_before']);
    const intent = str(query, 'payment_intent');
    const charge = str(query, 'charge');
    return this.page(this.disputes, account, '/v1/disputes', query, (dispute) => (intent === undefined || dispute.payment_intent === intent) && (charge === undefined || dispute.charge === charge));
  }

  retrieveDispute(account: FakeAccount, id: string): Json {
    return this.find(this.disputes, 'dispute', account, id);
  }

  /**
   * `GET /v1/events`: newest first; `type` or `types[]` (up to 20 exact names; `type` may end in
   * `.*`), `created` (a timestamp or `gt`/`gte`/`lt`/`lte`), `limit`, `starting_after`.
   */
  listEvents(account: FakeAccount, query: FormObject): Json {
    onlyParams(query, ['type', 'types', 'created', 'limit', 'starting_after', 'ending_before', 'delivery_success']);
    const types = strList(query, 'types');
    const type = str(query, 'type');
    if (types && type) throw invalidParam('types', 'You may only specify one of these parameters: type, types.');
    if (types && types.length > 20) throw invalidParam('types', 'You may only specify up to 20 types.');
    const matches = (name: string) => (types ? types.includes(name) : type === undefined ? true : type.endsWith('.*') ? name.startsWith(type.slice(0, -1)) : name === type);
    const created = createdFilter(query);
    const kept = new Map(this.events.map((event) => [event.data.id as string, event]));
    return this.page(kept, account, '/v1/events', query, (event) => matches(event.type as string) && created(event.created as number));
  }

  // --- helpers ----------------------------------------------------------------------------------

  private intent(id: string): { intent: Json; account: string } {
    const intent = this.resources.get(id);
    const account = this.resources.accountOf(id);
    if (!intent || !account || intent.object !== 'payment_intent') throw new Error(`No payment intent ${id}`);
    if (intent.status !== 'succeeded') throw new Error(`${id} took no money (it is ${String(intent.status)})`);
    return { intent, account };
  }

  /** Refunds live with the other API objects (FakeResources), whoever made them. */
  private refundStore(): Map<string, Kept> {
    return new Map(this.resources.list('refund').map((data) => [data.id as string, { account: this.resources.accountOf(data.id as string) as string, data }]));
  }

  private refundedOf(intentId: string): number {
    let total = 0;
    for (const data of this.resources.refundsOf(intentId)) if (data.status === 'succeeded' || data.status === 'pending') total += data.amount as number;
    return total;
  }

  /** The charge an intent's refund event carries: not modelled beyond what names its intent and refunds. */
  private chargeOf(intent: Json): Json {
    const refunded = this.refundedOf(intent.id as string);
    return { id: intent.latest_charge, object: 'charge', amount: intent.amount_received, amount_refunded: refunded, currency: intent.currency, payment_intent: intent.id, refunded: refunded >= (intent.amount_received as number), livemode: intent.livemode, metadata: {} };
  }

  private record(account: string, type: string, object: Json, created = now()): void {
    const intent = this.resources.get(object.payment_intent as string);
    const livemode = intent?.livemode === true;
    this.events.push({
      account,
      data: { id: fakeId('evt'), object: 'event', api_version: null, created, data: { object: structuredClone(object) }, livemode, pending_webhooks: 0, request: { id: null, idempotency_key: null }, type },
    });
  }

  private find(store: Map<string, Kept>, label: string, account: FakeAccount, id: string): Json {
    const kept = store.get(id);
    if (!kept || kept.account !== account.id) throw noSuch(label, id);
    return kept.data;
  }

  /** A list page, newest first (insertion order reversed, like the API's creation order). */
  private page(store: Map<string, Kept>, account: FakeAccount, url: string, query: FormObject, filter: (data: Json) => boolean): Json {
    const limit = int(query, 'limit') ?? 10;
    if (limit < 1 || limit > 100) throw invalidParam('limit', 'This value must be between 1 and 100.');
    let data = [...store.values()].filter((kept) => kept.account === account.id && filter(kept.data)).map((kept) => kept.data).reverse();
    const after = str(query, 'starting_after');
    if (after !== undefined) {
      const index = data.findIndex((item) => item.id === after);
      if (index < 0) throw invalidParam('starting_after', `No such object: '${after}'`);
      data = data.slice(index + 1);
    }
    const before = str(query, 'ending_before');
    if (before !== undefined) {
      const index = data.findIndex((item) => item.id === before);
      if (index < 0) throw invalidParam('ending_before', `No such object: '${before}'`);
      data = data.slice(Math.max(0, index - limit), index);
    }
    return { object: 'list', data: data.slice(0, limit), has_more: data.length > limit, url };
  }
}

/** `created=<ts>` or `created[gt|gte|lt|lte]=<ts>`. */
function createdFilter(query: FormObject): (created: number) => boolean {
  if (query.created === undefined) return () => true;
  if (typeof query.created === 'string') {
    const exact = int(query, 'created');
    return (created) => created === exact;
  }
  const range = obj(query, 'created') ?? {};
  for (const key of Object.keys(range)) if (!['gt', 'gte', 'lt', 'lte'].includes(key)) throw new FakeStripeError(400, { type: 'invalid_request_error', code: 'parameter_unknown', param: `created[${key}]`, message: `Received unknown parameter: created[${key}]` });
  const bound = (key: string) => int(range, key);
  const [gt, gte, lt, lte] = [bound('gt'), bound('gte'), bound('lt'), bound('lte')];
  return (created) => (gt === undefined || created > gt) && (gte === undefined || created >= gte) && (lt === undefined || created < lt) && (lte === undefined || created <= lte);
}

/** A dispute's evidence before anything was submitted: every field empty. */
function disputeEvidence(): Json {
  const fields = [
    'access_activity_log', 'billing_address', 'cancellation_policy', 'cancellation_policy_disclosure', 'cancellation_rebuttal', 'customer_communication', 'customer_email_address',
    'customer_name', 'customer_purchase_ip', 'customer_signature', 'duplicate_charge_documentation', 'duplicate_charge_explanation', 'duplicate_charge_id', 'product_description',
    'receipt', 'refund_policy', 'refund_policy_disclosure', 'refund_refusal_explanation', 'service_date', 'service_documentation', 'shipping_address', 'shipping_carrier',
    'shipping_date', 'shipping_documentation', 'shipping_tracking_number', 'uncategorized_file', 'uncategorized_text',
  ];
  return { ...Object.fromEntries(fields.map((field) => [field, null])), enhanced_evidence: {} };
}
