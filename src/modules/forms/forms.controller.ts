import { Body, Controller, Delete, Get, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { PAGING_HEADERS, setPagingHeaders } from '../../common/http/index.js';
import { AdminRoute, Capability, type AuthenticatedUser, CurrentUser } from '../../common/auth/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { IdParam } from '../../common/validation/index.js';
import { toFormSettings, toPaymentFormDto } from './form-settings.mapper.js';
import { FormsService } from './forms.service.js';
import {
  CreatePaymentFormDto,
  ListPaymentFormsQueryDto,
  PaymentFormDeletedDto,
  PaymentFormDto,
  UpdatePaymentFormDto,
} from './payment-form.dto.js';

const DEFAULT_PER_PAGE = 20;

/**
 * Form CRUD for the admin UI: an addition to the interface (docs/decisions.md §11). Reads need the admin
 * capability; writes also need edit access to the form.
 */
@ApiTags('Forms')
@Controller('administration/payment-forms')
export class FormsController {
  constructor(private readonly forms: FormsService) {}

  @Get()
  @AdminRoute(Capability.editForms)
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: [PaymentFormDto], headers: PAGING_HEADERS })
  @ApiOperation({ operationId: 'formsList', description: 'Your payment forms, newest first, a page at a time (`page`, `per_page` up to 100); totals in `X-WP-Total` and `X-WP-TotalPages`.', summary: 'List payment forms, newest first (paged)' })
  async list(@Query() query: ListPaymentFormsQueryDto, @Res({ passthrough: true }) res: Response): Promise<PaymentFormDto[]> {
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const page = await this.forms.list({ page: query.page ?? 1, perPage, status: query.status });
    setPagingHeaders(res, page.total, perPage);
    return page.items.map(toPaymentFormDto);
  }

  @Post()
  @ApiBody({
    type: CreatePaymentFormDto,
    examples: {
      donation: {
        summary: 'A draft donation form: one price, card and gateway B checkout, email field',
        value: {
          title: 'Donation form',
          status: 'draft',
          settings: {
            plans: [{ title: 'Donation', prices: [{ amount: 2500, currency: 'USD', frequency: 'one-time' }] }],
            payment_methods: { gateway_a: ['ccard'], gateway_b: ['standard_checkout'] },
            fields: [
              { name: 'email_address', type: 'email', label: 'Email', required: true },
              { name: 'first_name', type: 'text', label: 'First name', required: false },
            ],
            submit_actions: ['message'],
            email: { email_to: 'owner@example.com', admin_subject: 'New donation', payer_subject: 'Thank you for your donation', from_name: 'Example Shop' },
            display: { button_label: 'Donate now' },
            success_message: 'Thank you for your donation!',
          },
        },
      },
    },
  })
  @AdminRoute(Capability.editForms)
  @ApiErrorResponses(400)
  @ApiCreatedResponse({ type: PaymentFormDto })
  @ApiOperation({ operationId: 'formsCreate', description: 'Creates a payment form with its plans, prices, payment methods, fields and emails. You become its author; you need the `edit_checkout_forms` capability.', summary: 'Create a payment form (caller becomes its author; needs edit_checkout_forms)' })
  async create(@CurrentUser() user: AuthenticatedUser, @Body() body: CreatePaymentFormDto): Promise<PaymentFormDto> {
    return toPaymentFormDto(await this.forms.createAs(user, { title: body.title, status: body.status, settings: toFormSettings(body.settings) }));
  }

  @Get(':id')
  @AdminRoute(Capability.editForms)
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: PaymentFormDto })
  @ApiOperation({ operationId: 'formsGet', description: 'One payment form with all its settings.', summary: 'Read a payment form' })
  async get(@IdParam('id') id: number): Promise<PaymentFormDto> {
    return toPaymentFormDto(await this.forms.getById(id));
  }

  @Put(':id')
  @ApiBody({
    type: UpdatePaymentFormDto,
    examples: {
      publish: { summary: 'Rename and publish the form (its settings are kept)', value: { title: 'Donation form', status: 'publish' } },
    },
  })
  @AdminRoute(Capability.editForms)
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: PaymentFormDto })
  @ApiOperation({ operationId: 'formsUpdate', description: 'Changes a form\'s title, status (draft or publish) or settings. Settings are replaced whole, so send all of them. Needs edit access to the form.', summary: 'Change a payment form (needs edit access); settings are replaced whole' })
  async update(
    @CurrentUser() user: AuthenticatedUser,
    @IdParam('id') id: number,
    @Body() body: UpdatePaymentFormDto,
  ): Promise<PaymentFormDto> {
    const settings = body.settings ? toFormSettings(body.settings) : undefined;
    return toPaymentFormDto(await this.forms.update(user, id, { title: body.title, status: body.status, settings }));
  }

  @Delete(':id')
  @AdminRoute(Capability.editForms)
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: PaymentFormDeletedDto })
  @ApiOperation({ operationId: 'formsDelete', description: 'Deletes a payment form. Payments made with it are kept. Needs edit access to the form.', summary: 'Delete a payment form (needs edit access)' })
  async remove(@CurrentUser() user: AuthenticatedUser, @IdParam('id') id: number): Promise<PaymentFormDeletedDto> {
    return { deleted: true, previous: toPaymentFormDto(await this.forms.remove(user, id)) };
  }
}
