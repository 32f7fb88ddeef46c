import { Body, Controller, Get, HttpCode, Inject, Logger, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AdminRoute, Capability, type AuthenticatedUser, CurrentUser } from '../../common/auth/index.js';
import { APP_CONFIG, type AppConfig, CHECKOUT_REFUND_CAP } from '../../config/index.js';
import { IdentityService } from '../identity/index.js';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyKeyOf, idempotentRequest, IdempotencyService, IdempotentPerCaller } from '../idempotency/index.js';
import { KEYSET_PAGING_HEADERS, PAGING_HEADERS, setKeysetHeaders, setPagingHeaders } from '../../common/http/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { IdParam } from '../../common/validation/index.js';
import {
  AdminPaymentDetailDto,
  AdminPaymentDto,
  AdminPaymentsFilterDto,
  AdminPaymentsQueryDto,
  CreateRefundDto,
  PaymentQueriesService,
  PaymentTotalsAnswerDto,
  ReceiptEmails,
  ReceiptResendAnswerDto,
  RefundResultDto,
  RefundsService,
  toRefundDto,
} from '../payments/index.js';
import { PAYMENT_EXPORT_LIMITS, paymentCsvChunks, paymentCsvFileName } from './payments-csv.js';
import { AdminPaymentAnswerDto, CancelSubscriptionDto } from './subscription-cancel.dto.js';
import { SubscriptionCancelService } from './subscription-cancel.service.js';

const EXPORT_HEADERS = {
  'Content-Disposition': { description: 'attachment; filename="payments-<UTC time>.csv"', schema: { type: 'string' } },
  'X-WP-Total': { description: 'Payments that matched the filters when the export started (counted up to the export limit plus one)', schema: { type: 'integer' } },
  'X-Checkout-Truncated': {
    description: 'true when more payments matched than the export limit (`X-Checkout-Export-Limit`, the PAYMENT_EXPORT_MAX_ROWS setting): the file holds the newest ones (narrow the filters for the rest)',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
  'X-Checkout-Export-Limit': { description: 'The most rows one export writes', schema: { type: 'integer' } },
};

/**
 * The admin console's payments screens: the filtered, paged list, one payment with its log and
 * provider references, and the CSV export of a filtered list. The reads are PaymentQueriesService's.
 */
@ApiTags('Payments')
@Controller('administration/payments')
export class AdminPaymentsController {
  private readonly logger = new Logger(AdminPaymentsController.name);

  constructor(
    private readonly queries: PaymentQueriesService,
    private readonly subscriptions: SubscriptionCancelService,
    private readonly refunds: RefundsService,
    private readonly idempotency: IdempotencyService,
    private readonly identity: IdentityService,
    private readonly receipts: ReceiptEmails,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @AdminRoute(Capability.readPayments)
  @ApiOperation({
    operationId: 'administrationListPayments',
    summary: 'Payments, newest first, filtered (paged; X-WP-Total, X-WP-TotalPages)',
    description:
      'An addition to the interface for the admin console. Filters: `status`, `gateway`, `mode`, `currency`, `form_id`, `created_from` (inclusive) and ' +
      '`created_before` (exclusive), and `search` (the start of a payment id, provider reference, capture id, email address or a word of the payer\'s name, ignoring case and accents: see the parameter). ' +
      'Ordered by creation time, newest first, then by id, so pages do not overlap. Paged like /payment/history (`page`, `per_page` up to 100, default 20), ' +
      'or by keyset: `after` set to the previous answer\'s `X-Checkout-Next-Cursor` gives the page that follows it, at the same cost however deep (a forged or damaged cursor: 400 `rest_invalid_param`). ' +
      'Totals are counted exactly up to 10,000 matching payments; past that `X-WP-Total` is an estimate and `X-Checkout-Total-Estimated` is `true`.',
  })
  @ApiOkResponse({ type: AdminPaymentDto, isArray: true, headers: { ...PAGING_HEADERS, ...KEYSET_PAGING_HEADERS } })
  @ApiErrorResponses(400)
  async list(@Query() query: AdminPaymentsQueryDto, @Res({ passthrough: true }) response: Response): Promise<AdminPaymentDto[]> {
    const perPage = query.per_page ?? 20;
    const { entries, total, estimated, next } = await this.queries.adminList(query, { page: query.page ?? 1, perPage, after: query.after });
    setPagingHeaders(response, total, perPage);
    setKeysetHeaders(response, next, estimated);
    return entries;
  }

  // Declared before `:id`, which would otherwise take `totals` as an id (and refuse it).
  @Get('totals')
  @AdminRoute(Capability.readPayments)
  @ApiOperation({
    operationId: 'administrationPaymentTotals',
    summary: 'Totals of the filtered payments per mode and currency: gross, refunded, application fees, lost disputes, net',
    description:
      'An addition to the interface for the admin console: the filters of `GET /administration/payments` (without paging), summed by the database over ' +
      'every payment they select. Amounts in minor units of each entry\'s currency, counting only payments that received money; `net` is the CSV export\'s ' +
      '(received − succeeded refunds − the application fee kept − lost disputes), summed. `payments` counts every matching payment, `paid` those that received money, `failed` the failed ones.',
  })
  @ApiOkResponse({ type: PaymentTotalsAnswerDto })
  @ApiErrorResponses(400)
  async totals(@Query() query: AdminPaymentsFilterDto): Promise<PaymentTotalsAnswerDto> {
    return { totals: await this.queries.adminTotals(query) };
  }

  // Declared before `:id`, which would otherwise take `export.csv` as an id (and refuse it).
  @Get('export.csv')
  @AdminRoute(Capability.readPayments)
  @ApiOperation({
    operationId: 'administrationExportPayments',
    summary: 'CSV file of the filtered payments, newest first (streamed; at most PAYMENT_EXPORT_MAX_ROWS rows, default 1,000,000)',
    description:
      'The filters of `GET /administration/payments`, without paging. RFC 4180 CSV (UTF-8 starting with a byte-order mark, comma, CRLF, a header line), sent as an attachment ' +
      'and written as it is read. After the list\'s fields: `application_fee_amount`, `provider_payment_reference`, `failure_reason` and ' +
      '`custom_fields` (one cell of `key=value` pairs separated by `; `; with `form_id`, one `custom_fields.<name>` column per field of the form first). ' +
      'A text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `\'` so a ' +
      'spreadsheet does not run it as a formula. The file holds the payments that existed when it started; past the export limit (`X-Checkout-Export-Limit`, ' +
      'the PAYMENT_EXPORT_MAX_ROWS setting, default 1,000,000) matching payments it holds the newest ones and `X-Checkout-Truncated` is `true`.',
  })
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'The CSV file', headers: EXPORT_HEADERS, content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiErrorResponses(400)
  async export(@Query() query: AdminPaymentsFilterDto, @Res() response: Response): Promise<void> {
    // Everything that can be refused is refused here, before the first byte is sent.
    const exported = await this.queries.adminExport(query, this.config.paymentExportMaxRows, PAYMENT_EXPORT_LIMITS.batchSize);
    response.status(200);
    response.setHeader('Content-Type', 'text/csv; charset=utf-8; header=present');
    response.setHeader('Content-Disposition', `attachment; filename="${paymentCsvFileName(new Date())}"`);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('X-WP-Total', String(exported.total));
    response.setHeader('X-Checkout-Truncated', String(exported.truncated));
    response.setHeader('X-Checkout-Export-Limit', String(exported.limit));
    try {
      // pipeline: the next batch is read only when the client took the previous one; a client that
      // goes away stops the reads; a failure mid-file ends the connection without the final chunk,
      // so the client sees an incomplete download, never a file that looks complete.
      await pipeline(Readable.from(paymentCsvChunks(exported)), response);
    } catch (error) {
      if (response.destroyed && !response.writableFinished && (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
      this.logger.error({ err: error }, 'payments export stopped by an error');
    }
  }

  @Get(':id')
  @AdminRoute(Capability.readPayments)
  @ApiOperation({
    operationId: 'administrationGetPayment',
    summary: 'One payment with its provider references, fees, plan and price, custom fields and log',
    description:
      'An addition to the interface for the admin console: the list\'s fields plus what the provider received, the platform fee, the setup fee, ' +
      'the plan and price chosen, the custom fields, the ids of the provider\'s objects (payment, customer, subscription, capture) and the payment\'s log, ' +
      'oldest first (its newest lines, with the total). The card that paid appears only as its brand and last four digits (`card`); never the payment secret, a key or any other card data. 404 `checkout_not_found` for an unknown id.',
  })
  @ApiOkResponse({ type: AdminPaymentDetailDto })
  @ApiErrorResponses(400, 404)
  detail(@IdParam('id') id: number): Promise<AdminPaymentDetailDto> {
    return this.queries.adminDetail(id, this.identity.displayNames);
  }

  @Post(':id/subscription/cancel')
  @HttpCode(200)
  @AdminRoute(Capability.cancelSubscriptions)
  @ApiBody({
    type: CancelSubscriptionDto,
    examples: {
      at_period_end: { summary: 'End the subscription when the period already paid ends', value: { at_period_end: true } },
      now: { summary: 'End the subscription now', value: { at_period_end: false } },
    },
  })
  @ApiOperation({
    operationId: 'administrationCancelSubscription',
    summary: "Cancel the provider subscription of a subscription's payment (now or at the end of its period)",
    description:
      'An addition to the interface for the admin console. Needs the `cancel_checkout_subscriptions` capability (checked before the payment is read). ' +
      'The payment is the subscription\'s first payment or one of its renewals; the subscription is canceled at the provider with the credentials of the ' +
      'payment\'s own mode. Answers the payment as GET /administration/payments/{id} does. 409 `checkout_invalid_state` when the payment is not part of ' +
      'a subscription this gateway can cancel, the subscription is already canceled (or, with `at_period_end`, already set to cancel then), or the ' +
      "payment's mode is not connected; 502 `checkout_gateway_error` when the provider refused (its text is not echoed).",
  })
  @ApiOkResponse({ type: AdminPaymentAnswerDto })
  @ApiErrorResponses(400, 404, 409, 502, 503)
  cancelSubscription(@IdParam('id') id: number, @Body() body: CancelSubscriptionDto, @CurrentUser() user: AuthenticatedUser): Promise<AdminPaymentAnswerDto> {
    return this.subscriptions.cancel(id, body.at_period_end, user);
  }

  @Post(':id/receipt')
  @HttpCode(202)
  @AdminRoute(Capability.resendReceipts)
  @ApiOperation({
    operationId: 'administrationResendReceipt',
    summary: "Send the payer's receipt again (through the outbox; no money moves)",
    description:
      'An addition to the interface for the admin console. Needs the `resend_checkout_receipts` capability (administrators and support have it; checked before ' +
      "the payment is read). Queues the payer's receipt email: the merchant's name (the form's `email.from_name`), the form, the amount, the payment reference, " +
      "the provider's reference and the payer's manage link (`/pay/manage/{token}`). The email is sent after the answer, retried if the mail server fails " +
      '(the payment log says `receipt_sent` or `receipt_failed`). A second request for the same payment within a minute or two queues nothing (`queued: false`), ' +
      'so a double click sends one email. No body. 404 `checkout_not_found` for an unknown id; 409 `checkout_invalid_state` when the payment is not completed, ' +
      'was not made with a form, or has no payer email address.',
  })
  @ApiResponse({ status: 202, type: ReceiptResendAnswerDto, description: 'The receipt is queued (or was a moment ago)' })
  @ApiErrorResponses(400, 404, 409)
  resendReceipt(@IdParam('id') id: number, @CurrentUser() user: AuthenticatedUser): Promise<ReceiptResendAnswerDto> {
    return this.receipts.resend(id, user.id);
  }

  @Post(':id/refunds')
  @HttpCode(201)
  @AdminRoute(Capability.refundPayments)
  @IdempotentPerCaller('confirmed refund')
  @ApiOperation({
    operationId: 'administrationRefundPayment',
    summary: 'Refund a completed payment in full or in part, at its gateway',
    description:
      `An addition to the interface. Needs the \`${CHECKOUT_REFUND_CAP}\` capability (administrators and support have it; checked before the payment is read). ` +
      'Refunds `amount` (default: all of `refundable_amount`) with the credentials of the payment\'s own mode. The amount is reserved on the payment before the ' +
      'provider is called, so concurrent refunds never exceed what was received; the provider call carries an idempotency key derived from the refund. ' +
      'Answers the refund (`succeeded`, or `pending` while the provider settles it, or `failed`) and the payment. 400 `rest_invalid_param` naming the field: ' +
      '`amount` not a JSON integer ≥ 1, above `refundable_amount` or not representable at the gateway; `reason` not one of the list; `note` over 500 characters. ' +
      '404 unknown payment. 409 `checkout_invalid_state`: the payment is not completed, took no money, has nothing left, has an open dispute, is past the ' +
      "provider's time limit, its mode is disconnected, or the provider says it was refunded meanwhile (its refunds are then read again). 502 " +
      "`checkout_gateway_error` when the provider refuses (our message, never the provider's text); 503 when it does not answer (the refund stays pending).",
  })
  @ApiBody({
    type: CreateRefundDto,
    examples: {
      full: { summary: 'Refund all that is left', value: {} },
      partial: { summary: 'Refund 5.00 of a USD payment', value: { amount: 500, reason: 'requested_by_customer', note: 'Asked by phone' } },
    },
  })
  @ApiCreatedResponse({ type: RefundResultDto, description: 'The refund and the payment after it' })
  @ApiErrorResponses(400, 404, 409, 502, 503)
  async refund(
    @IdParam('id') id: number,
    @Body() body: CreateRefundDto,
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<RefundResultDto> {
    // Keys belong to the user and the payment (not to a client address): begun once the caller is known.
    const key = idempotencyKeyOf(request.headers['idempotency-key']);
    const call = key === null ? null : await this.idempotency.beginScoped('administration/payments/refunds', key, `user:${user.id}:payment:${id}`);
    const source = /^Basic /i.test(request.headers.authorization ?? '') ? 'api' : 'console';
    const outcome = await this.refunds.create(id, body, { userId: user.id, source }, idempotentRequest(call, body));
    if (call?.replayed) response.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return { refund: toRefundDto(outcome.refund), payment: await this.queries.adminDetail(id, this.identity.displayNames) };
  }
}
