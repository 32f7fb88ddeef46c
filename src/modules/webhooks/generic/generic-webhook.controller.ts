import { Body, Controller, Get, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, Capability, SignedWebhookRoute } from '../../../common/auth/index.js';
import type { RawBodyRequest } from '../../../common/http/index.js';
import { ApiErrorResponses } from '../../../common/openapi/index.js';
import { APP_CONFIG, type AppConfig, REST_NAMESPACE } from '../../../config/index.js';
import { webhookVerdictOf } from '../signed-webhook.guard.js';
import { WebhookIntakeService } from '../webhook-intake.service.js';
import { GenericEventSource } from './generic-event-source.js';
import { GenericWebhookEnvelopeDto, GenericWebhookReceiptDto, RotatedWebhookSecretDto, WebhookStatusDto } from './generic-webhook.dto.js';
import { GenericWebhookSecret } from './generic-webhook-secret.service.js';
import { GENERIC_SIGNATURE_HEADER, GENERIC_WEBHOOK_SCHEME } from './generic-webhook.verifier.js';

const MESSAGES = {
  processed: 'Webhook processed.',
  ignored: 'Webhook received; nothing to do.',
  rejected: 'Webhook received; it disagrees with the payment and was not applied.',
  duplicate: 'Webhook already received.',
} as const;

/** Section B's generic webhook routes (docs/decisions.md §8, §10). */
@ApiTags('Webhooks')
@Controller('webhook')
export class GenericWebhookController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly intake: WebhookIntakeService,
    private readonly events: GenericEventSource,
    private readonly secret: GenericWebhookSecret,
  ) {}

  /** The body is validated here, but the event is read from the signed raw bytes by the intake. */
  @Post('receive')
  @ApiBody({
    type: GenericWebhookEnvelopeDto,
    examples: {
      succeeded: {
        summary: 'A payment succeeded (send it signed: Checkout-Signature over the exact bytes)',
        value: { id: 'evt_0001', event: 'payment_intent.succeeded', data: { transaction_id: 'pi_3QvP5n2eZvKYlo2C', amount: 19.99, currency: 'USD' } },
      },
    },
  })
  @HttpCode(200)
  @SignedWebhookRoute(GENERIC_WEBHOOK_SCHEME)
  @ApiOperation({
    operationId: 'webhookReceive',
    summary: 'Receive a signed webhook envelope; payment_intent.succeeded completes the payment it names when amount and currency match',
    description:
      '`Checkout-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "t.raw-body")>` with the site’s generic webhook secret (300 s tolerance), ' +
      'else 400 `checkout_invalid_signature`. Each event is stored once (by `id`, or by the SHA-256 of the body). `payment_intent.succeeded` completes the local ' +
      'payment named by `data.transaction_id` (the provider payment id, or the local id while it has none) when it is pending or processing and ' +
      '`data.amount` (major units, converted exactly) and `data.currency` equal the record; other events are stored and ignored.',
  })
  @ApiHeader({ name: GENERIC_SIGNATURE_HEADER, required: true, description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.raw-body">`' })
  @ApiConsumes('application/json')
  @ApiOkResponse({ type: GenericWebhookReceiptDto })
  @ApiErrorResponses(413, 503)
  async receive(@Body() _body: GenericWebhookEnvelopeDto, @Req() request: RawBodyRequest): Promise<GenericWebhookReceiptDto> {
    const { outcome } = await this.intake.receive(this.events, null, request.rawBody, webhookVerdictOf(request));
    return { success: true, message: MESSAGES[outcome], outcome };
  }

  @Get('status')
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({ operationId: 'webhookStatus', description: 'The URL where section B webhooks are received and the site\'s signing secret as a mask, to set up a sender.', summary: 'Where section B webhooks are received, and the signing secret as a mask' })
  @ApiOkResponse({ type: WebhookStatusDto })
  async status(): Promise<WebhookStatusDto> {
    return { webhook_url: this.receiveUrl(), status: 'active', secret: await this.secret.mask() };
  }

  @Post('rotate-secret')
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiOperation({
    operationId: 'webhookRotateSecret',
    summary: 'Replace the generic webhook secret and show the new one, whole, this once (an addition to section B)',
    description: 'The old secret stops working at once. The new one is never shown whole again (`GET /webhook/status` masks it).',
  })
  @ApiOkResponse({ type: RotatedWebhookSecretDto })
  async rotateSecret(): Promise<RotatedWebhookSecretDto> {
    const secret = await this.secret.rotate();
    return { webhook_url: this.receiveUrl(), status: 'active', secret, message: 'A new webhook secret is active; deliveries signed with the old one are refused.' };
  }

  private receiveUrl(): string {
    return `${this.config.publicBaseUrl}/${this.config.restRoot}/${REST_NAMESPACE}/webhook/receive`;
  }
}
