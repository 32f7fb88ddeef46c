import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { PAGING_HEADERS, setPagingHeaders } from '../../common/http/index.js';
import { AdminRoute, Capability, PaymentReferenceRoute, PublicRoute } from '../../common/auth/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { RateLimit } from '../../common/rate-limit/index.js';
import { Idempotency, Idempotent, type IdempotentCall, idempotentRequest, isIdempotentRepeat } from '../idempotency/index.js';
import { type PaymentRecord } from './payment-record.js';
import { VerifiedPayment } from './payment-reference.guard.js';
import { PAYMENT_REFERENCE_EXAMPLE } from './payment-reference.dto.js';
import {
  PaymentHistoryQueryDto,
  PaymentStatusRequestDto,
  PaymentStatusResponseDto,
  TransactionStatusDto,
  TransactionStatusQueryDto,
} from './payment-status.dto.js';
import { PaymentQueriesService } from './payment-queries.service.js';
import { SyncDetailsService } from './sync-details.service.js';
import { SyncDetailsDto, SyncDetailsResponseDto } from './sync-details.dto.js';

/**
 * Creation (no payment_id) counts against the new-row limit; updates against the public one, and
 * so does the repeat of a finished `Idempotency-Key` (it creates nothing: a replay or a 422).
 */
function syncDetailsLimit(request: Request): 'new_payment' | 'public_payment' {
  if (isIdempotentRepeat(request)) return 'public_payment';
  const body = request.body as { payment_id?: unknown } | undefined;
  return body?.payment_id === undefined || body.payment_id === '' ? 'new_payment' : 'public_payment';
}

/** The customer's browser: payment records without a login. */
@ApiTags('Checkout')
@Controller('payment')
export class PaymentsController {
  constructor(
    private readonly syncDetailsService: SyncDetailsService,
    private readonly queries: PaymentQueriesService,
  ) {}

  @Post('sync-details')
  @HttpCode(200)
  @PublicRoute()
  @RateLimit(syncDetailsLimit)
  @Idempotent('payment/sync-details')
  @ApiOperation({
    operationId: 'paymentSyncDetails',
    summary: 'Create (201) or update (200) a partial payment record',
    description:
      'Without `payment_id` creates a record (rate limited per client IP); with `payment_id` + `payment_secret` updates it. ' +
      'The amount comes from the form on the server. Answers the secret and a fresh checkout token. ' +
      'With `Idempotency-Key`, a repeat within 24 hours answers the same record (201 again for a creation) without a second row and without counting as a creation; ' +
      'the record is answered as it is now, with the secret and a fresh token.',
  })
  // Swagger UI pre-fills the first example; a sample built from the schema would send an update
  // (`payment_id`, `payment_secret`) with placeholder values. It works once form 1 is published with
  // gateway A connected and its `ccard` method on (e.g. after importing a template and publishing it).
  @ApiBody({
    type: SyncDetailsDto,
    examples: {
      create: {
        summary: 'Start a payment on form 1 (card, first plan and price)',
        value: { form_id: 1, payment_gateway: 'gateway_a', payment_method: 'ccard', plan_index: 0, price_index: 0, email_address: 'payer@example.com', first_name: 'Pat', last_name: 'Payer' },
      },
    },
  })
  @ApiCreatedResponse({ type: SyncDetailsResponseDto, description: 'Record created' })
  @ApiOkResponse({ type: SyncDetailsResponseDto, description: 'Record updated' })
  @ApiErrorResponses(400, 403, 404, 409, 429)
  async syncDetails(
    @Body() body: SyncDetailsDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Idempotency() idempotency: IdempotentCall | null,
  ): Promise<SyncDetailsResponseDto> {
    const result = await this.syncDetailsService.syncDetails(body, request.ip, idempotentRequest(idempotency, body));
    if (result.created) response.status(201);
    return result.body;
  }

  @Post('status')
  @ApiBody({ type: PaymentStatusRequestDto, examples: { reference: { summary: 'The reference of a payment (values from payment/sync-details)', value: PAYMENT_REFERENCE_EXAMPLE } } })
  @HttpCode(200)
  @PaymentReferenceRoute()
  @ApiOperation({
    operationId: 'paymentStatusRead',
    summary: 'Local outcome of a signed payment attempt',
    description: 'Requires the payment reference (id, secret, checkout token, form/gateway/method, amount, currency). Never asks a provider.',
  })
  @ApiOkResponse({ type: PaymentStatusResponseDto })
  @ApiErrorResponses(400)
  status(@Body() _reference: PaymentStatusRequestDto, @VerifiedPayment() payment: PaymentRecord): PaymentStatusResponseDto {
    return this.queries.statusOf(payment);
  }
}

/** Section B reads of the payment records (admin). */
@ApiTags('Payments')
@Controller('payment')
export class PaymentHistoryController {
  constructor(private readonly queries: PaymentQueriesService) {}

  @Get('status')
  @AdminRoute(Capability.readPayments)
  @ApiOperation({ operationId: 'paymentTransactionStatus', description: 'Looks up one payment by the provider\'s transaction id and answers its amount, currency and status from the local record (the provider is not asked).', summary: 'Status of one payment by transaction id' })
  @ApiOkResponse({ type: TransactionStatusDto })
  @ApiErrorResponses(400, 404)
  transactionStatus(@Query() query: TransactionStatusQueryDto): Promise<TransactionStatusDto> {
    return this.queries.transactionStatus(query.transaction_id);
  }

  @Get('history')
  @AdminRoute(Capability.readPayments)
  @ApiOperation({ operationId: 'paymentHistory', description: 'All payments, newest first, a page at a time (`page`, `per_page` up to 100). The totals are in the `X-WP-Total` and `X-WP-TotalPages` headers.', summary: 'Payment history, newest first (paged; X-WP-Total, X-WP-TotalPages)' })
  @ApiOkResponse({ type: TransactionStatusDto, isArray: true, headers: PAGING_HEADERS })
  @ApiErrorResponses(400)
  async history(@Query() query: PaymentHistoryQueryDto, @Res({ passthrough: true }) response: Response): Promise<TransactionStatusDto[]> {
    const perPage = query.per_page ?? 10;
    const { entries, total } = await this.queries.history(query.page ?? 1, perPage);
    setPagingHeaders(response, total, perPage);
    return entries;
  }
}
