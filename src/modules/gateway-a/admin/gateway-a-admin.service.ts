import { Inject, Injectable } from '@nestjs/common';
import { InvalidParamsError } from '../../../common/errors/index.js';
import { MoneyFormatError, toMinorUnits } from '../../../common/money/index.js';
import type { AcknowledgementDto } from '../../../common/openapi/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type AdminChargeRequest, type AdminChargeResult, type AdminCharges, GatewayStateService } from '../../gateways/index.js';
import { MAX_INT, type PaymentPatch, type PaymentRecord, PaymentLedgerService } from '../../payments/index.js';
import { OptionsService } from '../../settings/index.js';
import { type Expected, type GatewayAPaymentIntent, parsePaymentIntent } from '../client/gateway-a-answers.js';
import { GatewayAClientFactory } from '../client/gateway-a-client.factory.js';
import { describeGatewayFailure } from '../client/gateway-a-errors.js';
import { GatewayAFailures } from '../client/gateway-a-failures.js';
import { gatewayAFees } from '../client/fee-policy.js';
import { InstallationScope } from '../client/installation-scope.js';
import { isStripeError } from '../client/stripe-sdk.js';
import { intentOutcome } from '../checkout/intent-outcome.js';
import { gatewayAOption } from '../gateway-a-options.js';
import { gatewayAWebhookUrl } from '../webhook/webhook-contract.js';
import { PAYMENT_METHOD_ID, type GatewayAConfigDto } from './gateway-a-admin.dto.js';

const MESSAGES: Record<string, string> = {
  succeeded: 'Payment succeeded.',
  processing: 'Payment is processing; its outcome arrives with the gateway’s webhook.',
  requires_action: 'The payment method needs the payer to authenticate, which an admin charge cannot do; the payment stays pending.',
  requires_capture: 'Payment authorised.',
  canceled: 'Payment canceled.',
};

/**
 * Section B's gateway-A routes: admin charges (`POST /gateway-a/payment`, `POST /payment/process`),
 * the client configuration and the webhook acknowledgement.
 *
 * An admin charge needs gateway A connected in its current mode, but not a verified webhook
 * contract: its outcome is the synchronous answer of the confirmed PaymentIntent, not a webhook.
 */
@Injectable()
export class GatewayAAdminService implements AdminCharges {
  readonly tokenDescription = 'a gateway A payment method id (pm_…)';

  private readonly fees;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clients: GatewayAClientFactory,
    private readonly state: GatewayStateService,
    private readonly options: OptionsService,
    private readonly ledger: PaymentLedgerService,
    private readonly failures: GatewayAFailures,
    private readonly scope: InstallationScope,
  ) {
    this.fees = gatewayAFees(config.plan);
  }

  /**
   * Creates a local record, then a PaymentIntent confirmed with the payment method (idempotency
   * key from the record id), and moves the record as the intent's status says. A decline is a
   * payment result (`requires_payment_method`, record failed), not an error; other gateway
   * failures are 502 `checkout_gateway_error`.
   */
  accepts(paymentMethod: string): boolean {
    return PAYMENT_METHOD_ID.test(paymentMethod);
  }

  async charge(request: AdminChargeRequest): Promise<AdminChargeResult> {
    const amount = minorAmount(request.amount, request.currency);
    const mode = await this.state.getMode('gateway_a');
    const account = await this.clients.forMode(mode);
    const payment = await this.ledger.openAdminCharge({
      gateway: 'gateway_a',
      method: 'ccard',
      mode,
      amount,
      currency: request.currency,
      description: request.description,
      userId: request.userId,
      source: request.source,
    });
    const fee = this.fees.applicationFeeAmount(amount);
    const metadata = this.scope.metadata({ checkout_payment_id: String(payment.id), checkout_source: 'admin_charge' });
    const expected: Expected = { amount, currency: request.currency, metadata };
    let intent: GatewayAPaymentIntent;
    try {
      const created = await account.client.paymentIntents.create(
        {
          amount,
          currency: request.currency.toLowerCase(),
          payment_method: request.paymentMethod,
          confirm: true,
          capture_method: 'automatic',
          allowed_payment_method_types: ['card'],
          ...(request.description ? { description: request.description } : {}),
          metadata,
          ...(fee !== null ? { application_fee_amount: fee } : {}),
        },
        { idempotencyKey: this.scope.keys.adminCharge(payment.id) },
      );
      // An answer that is not this charge's intent is no result: the outcome is unknown (502, record pending).
      intent = parsePaymentIntent(created, 'paymentIntents.create', expected);
    } catch (error) {
      const declined = isStripeError(error, 'StripeCardError') ? declinedIntent(error.payment_intent, expected) : null;
      if (declined && isStripeError(error, 'StripeCardError')) return this.declined(payment, declined, error.code ?? error.decline_code ?? 'card_declined', fee);
      throw await this.failed(payment, error);
    }
    return this.settle(payment, intent, fee);
  }

  async configuration(): Promise<GatewayAConfigDto> {
    const mode = await this.state.getMode('gateway_a');
    const publicKey = await this.options.get<string | null>(gatewayAOption.credential(mode, 'public_key'), null);
    return { api_key: publicKey || null, webhook_url: gatewayAWebhookUrl(this.config, mode) };
  }

  /** GET /gateway-a/webhook: the gateway posts its events elsewhere; this only says so. */
  webhookAcknowledgement(): AcknowledgementDto {
    return { success: true, message: 'Gateway A webhooks are received and processed at POST /webhook/gateway-a-callback/{mode}.' };
  }

  private async settle(payment: PaymentRecord, intent: GatewayAPaymentIntent, fee: number | null): Promise<AdminChargeResult> {
    const outcome = intentOutcome(intent);
    const patch: PaymentPatch = { providerPaymentRef: intent.id, applicationFeeAmount: fee };
    if (outcome.status === 'completed') {
      patch.amountReceived = intent.amount_received;
      patch.providerCaptureRef = intent.latest_charge;
    }
    if (outcome.status === 'pending') await this.ledger.recordProviderDetails(payment.id, patch, 'admin:gateway_a');
    else await this.ledger.transition(payment.id, outcome.status, { source: 'admin:gateway_a', reason: 'admin charge', patch });
    return {
      transaction_id: intent.id,
      status: intent.status === 'succeeded' ? 'success' : intent.status,
      message: MESSAGES[intent.status] ?? `The gateway answered ${intent.status}.`,
    };
  }

  private async declined(payment: PaymentRecord, intent: GatewayAPaymentIntent, code: string, fee: number | null): Promise<AdminChargeResult> {
    await this.ledger.transition(payment.id, 'failed', {
      source: 'admin:gateway_a',
      reason: `declined (${code})`,
      patch: { providerPaymentRef: intent.id, applicationFeeAmount: fee },
    });
    return { transaction_id: intent.id, status: intent.status, message: `The payment was declined (${code}).` };
  }

  /**
   * A refused request (4xx) charged nothing: the record fails. Without an answer (5xx, network), or
   * with one that is not this charge's intent (a malformed answer, whatever its status), the
   * outcome is unknown and the record stays pending. Either way: logged, 502.
   */
  private async failed(payment: PaymentRecord, error: unknown): Promise<unknown> {
    const answer = await this.failures.record(payment.id, error, { event: 'charge_failed', what: 'Admin charge', source: 'admin:gateway_a' });
    const status = isStripeError(error, 'StripeError') ? (error.statusCode ?? 0) : 0;
    if (status >= 400 && status < 500) await this.ledger.transition(payment.id, 'failed', { source: 'admin:gateway_a', reason: describeGatewayFailure(error) });
    return answer;
  }
}

/**
 * The declined intent a card error carries, when it is this charge's intent; null otherwise (the
 * refusal is then handled as any other 4xx: the record fails without a provider reference).
 */
function declinedIntent(intent: unknown, expected: Expected): GatewayAPaymentIntent | null {
  if (intent === undefined || intent === null) return null;
  try {
    return parsePaymentIntent(intent, 'paymentIntents.create', expected);
  } catch {
    return null;
  }
}

/** Major units → minor units, exactly; 400 naming `amount` when the currency cannot take it. */
function minorAmount(amount: number | string, currency: string): number {
  let minor: number;
  try {
    minor = toMinorUnits(amount, currency);
  } catch (error) {
    if (error instanceof MoneyFormatError) throw new InvalidParamsError({ amount: error.message });
    throw error;
  }
  if (minor < 1 || minor > MAX_INT) throw new InvalidParamsError({ amount: `amount must be between the smallest ${currency} unit and ${MAX_INT} minor units` });
  return minor;
}
