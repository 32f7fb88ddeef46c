import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { PublicRoute } from '../../common/auth/index.js';
import { NotFoundError } from '../../common/errors/index.js';
import { choosePayerLocale } from '../../common/payer-language/index.js';
import { ApiErrorResponses } from '../../common/openapi/index.js';
import { RateLimit } from '../../common/rate-limit/index.js';
import { IdParam } from '../../common/validation/index.js';
import { FormViewService } from './form-view.service.js';
import { localizePayerForm } from './payer-form.js';
import { PublicFormDto } from './public-form.dto.js';
import { publicFormEtag, toPublicFormDto } from './public-form.mapper.js';

/** How long a browser or a shared cache may reuse the read without asking again: short, because a gateway's mode or connection can change. */
export const PUBLIC_FORM_MAX_AGE_SECONDS = 30;

@ApiTags('Checkout')
@Controller('payment/form')
export class PublicFormController {
  constructor(private readonly views: FormViewService) {}

  @Get(':form_id')
  @PublicRoute()
  @RateLimit('public_payment')
  @ApiParam({ name: 'form_id', description: 'Id of a published payment form', example: 1 })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of an earlier answer: 304 while it is still current' })
  @ApiHeader({ name: 'Accept-Language', required: false, description: 'The payer\'s languages: the form\'s texts come in the best match among the payer languages (unless the form fixes one)' })
  @ApiOperation({
    operationId: 'paymentFormRead',
    summary: 'A published form as a checkout draws it: prices, payer fields, methods and the gateways\' public browser values',
    description:
      'What a custom checkout needs to draw a published form and pay it through `POST /payment/sync-details`: title and description, every plan and price ' +
      '(minor units with the currency and its exponent, the interval of a recurring price, the setup fee, the bounds of a customer-entered amount), the payer ' +
      'fields, the message after paying, and for each gateway that can take payments now (connected in its current mode, not paused) its mode, the methods ' +
      'of the form that the site has active and the public values its browser library takes (publishable key, client id; never a secret). ' +
      'The texts are in the payer\'s language (`locale`: the form\'s fixed language, else `Accept-Language`, else the site\'s default), with the form\'s own ' +
      'versions of that language (title, description, field labels, plan titles, button label, success message) where it has them. ' +
      'The hosted payment page `/pay/{form_id}` is drawn from the same read. No login; rate limited like the other public payment routes; ' +
      `cacheable for ${PUBLIC_FORM_MAX_AGE_SECONDS} seconds with a strong ETag (\`If-None-Match\` answers 304). A draft or unknown form is 404 \`checkout_not_found\`.`,
  })
  @ApiOkResponse({
    type: PublicFormDto,
    headers: {
      ETag: { description: 'Strong validator of this answer', schema: { type: 'string' } },
      'Cache-Control': { description: `public, max-age=${PUBLIC_FORM_MAX_AGE_SECONDS}`, schema: { type: 'string' } },
    },
  })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the ETag)' })
  @ApiErrorResponses(400, 404, 429)
  async read(
    @IdParam('form_id') formId: number,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PublicFormDto> {
    const view = await this.views.published(formId);
    if (!view) throw new NotFoundError('Payment form');
    // The language as the hosted page chooses it, so a custom checkout shows the payer what the hosted page would.
    const locale = choosePayerLocale({ formLocale: view.form.locale, acceptLanguage, siteDefault: await this.views.defaultPayerLocale() });
    const body = toPublicFormDto({ ...view, form: localizePayerForm(view.form, locale) }, locale);
    res.vary('Accept-Language');
    res.setHeader('ETag', publicFormEtag(JSON.stringify(body)));
    res.setHeader('Cache-Control', `public, max-age=${PUBLIC_FORM_MAX_AGE_SECONDS}`);
    // Express answers 304 by itself when If-None-Match matches the ETag set above.
    return body;
  }
}
