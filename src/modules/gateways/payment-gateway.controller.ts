import { Body, Controller, Get, HttpCode, Post, Query, Redirect, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AdminRoute, Capability, type AuthenticatedUser, CurrentUser, PublicRoute } from '../../common/auth/index.js';
import { ApiErrorResponses, WpErrorDto } from '../../common/openapi/index.js';
import {
  ConnectCallbackQueryDto,
  ConnectKeysDto,
  ConnectKeysResultDto,
  ConnectQueryDto,
  ConnectStartDto,
  CredentialSettingsDto,
  GatewayRefDto,
  GatewayStatusDto,
  PaymentMethodSettingsDto,
  SavePaymentMethodSettingsDto,
  SaveSettingsDto,
  SaveWebhookSettingsDto,
  SetModeDto,
  SetPaymentMethodsDto,
  WebhookSettingsDto,
} from './payment-gateway.dto.js';
import { GatewayCatalogDto } from './gateway-catalog.dto.js';
import { GatewayCatalogService } from './gateway-catalog.service.js';
import { PaymentGatewayService } from './payment-gateway.service.js';

const LOCATION_HEADER = { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } };

@ApiTags('Gateways')
@Controller('payment-gateway')
export class PaymentGatewayController {
  constructor(
    private readonly gateways: PaymentGatewayService,
    private readonly catalogs: GatewayCatalogService,
  ) {}

  @Get('catalog')
  // The gateways screen, the form builder's payment methods and the payments' method names all read it.
  @AdminRoute([Capability.manageSettings, Capability.editForms, Capability.readPayments])
  @ApiOperation({
    operationId: 'paymentGatewayCatalog',
    summary: 'Every gateway as an admin UI draws it: kind, methods (labels, Pro-only, active, hosted page), recurring support, and how it is connected (routes and their fields)',
    description:
      'What an admin console needs to draw the gateways screen and the form builder\'s payment methods without knowing gateways by name. ' +
      'Each gateway lists its payment methods (with their labels, whether only the Pro plan may activate them, whether they are active on the site and whether ' +
      'the hosted payment page can take them), whether it takes recurring prices, its current mode, and the ways to connect it (`oauth`, `own_keys`, ' +
      '`credentials`, `webhook_settings`), each with its admin route and the body fields it takes (names, labels, secret or not). ' +
      'Connection and webhook state per mode are in `GET /administration/dashboard`.',
  })
  @ApiOkResponse({ type: GatewayCatalogDto })
  catalog(): Promise<GatewayCatalogDto> {
    return this.catalogs.catalog();
  }

  @Get('connect')
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400)
  @ApiOperation({
    operationId: 'paymentGatewayConnect',
    summary: "Start gateway A's OAuth connect flow: the proxy's authorisation URL with a signed, single-use state (10 minutes)",
    description:
      'A browser navigation gets a 302 to the proxy. A client that asks for JSON (`Accept: application/json`) gets ' +
      '`{ authorize_url }` instead and sends the admin there itself, so the flow can start from an admin UI without a navigation that relies on cached credentials.',
  })
  @ApiResponse({ status: 302, description: "Redirect to the proxy's OAuth page", headers: LOCATION_HEADER })
  @ApiOkResponse({ type: ConnectStartDto, description: 'With `Accept: application/json`: where to send the admin' })
  start(@Query() query: ConnectQueryDto, @CurrentUser() user: AuthenticatedUser, @Req() request: Request, @Res() response: Response): void {
    const url = this.gateways.authorizeUrl(user, query.mode);
    // JSON only when the client prefers it over HTML: a navigation (Accept: text/html or */*) is redirected.
    if (request.accepts(['text/html', 'application/json']) === 'application/json') {
      response.status(200).json({ authorize_url: url } satisfies ConnectStartDto);
      return;
    }
    response.redirect(302, url);
  }

  @Get('connect-callback')
  @Redirect()
  @PublicRoute()
  @ApiErrorResponses(400)
  @ApiOperation({
    operationId: 'paymentGatewayConnectCallback', description: 'Where the gateway\'s connect page sends the admin back. The signed, single-use `state` from `GET /payment-gateway/connect` must be valid (else nothing is stored). The code is exchanged for credentials (or the credentials are taken as sent), stored for the mode, and the webhook endpoint is created; the browser is then redirected to the admin UI with the outcome.',
    summary:
      'OAuth return: checks the state, exchanges the code (or takes the credentials), stores them for the mode, provisions the webhook endpoint; ' +
      '302 to ADMIN_URL with ?gateway_a_connected=<mode> or ?gateway_a_error=<code>',
  })
  @ApiResponse({ status: 302, description: 'Redirect to the admin UI with the outcome', headers: LOCATION_HEADER })
  async callback(@Query() query: ConnectCallbackQueryDto): Promise<{ url: string; statusCode: number }> {
    return { url: await this.gateways.completeConnect(query), statusCode: 302 };
  }

  @Post('connect-keys')
  @ApiBody({
    type: ConnectKeysDto,
    examples: {
      test: { summary: "Connect test mode with the merchant's own test keys", value: { mode: 'test', publishable_key: 'pk_test_51Example0123456789', secret_key: 'sk_test_51Example0123456789' } },
    },
  })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400, 502)
  @ApiResponse({
    status: 503,
    description: 'The provider could not be reached to check the keys (`checkout_gateway_unavailable`); nothing was saved',
    schema: { $ref: getSchemaPath(WpErrorDto) },
  })
  @ApiOperation({
    operationId: 'paymentGatewayConnectKeys',
    summary: "Connect a mode with the merchant's own API keys (what the CLI's gateway-a:connect does): checked with the provider, stored, webhook endpoint created and verified",
    description:
      'For the gateway that takes the merchant\'s own keys (gateway A), so an admin UI needs no terminal. The keys must be of the mode (400 otherwise); ' +
      'the provider is asked which account the secret key acts for: refused → 502 `checkout_gateway_error`, unreachable → 503 ' +
      '`checkout_gateway_unavailable`, and nothing is stored either way. Then the keys are stored (the secret encrypted) as the OAuth connect stores ' +
      'them, and the mode\'s webhook endpoint is created and read back: `webhook.status` says whether checkout in the mode is open. ' +
      'The secret key is never answered or logged. Works on every plan, as the CLI does; `notes` says what the free plan means for own keys.',
  })
  @ApiOkResponse({ type: ConnectKeysResultDto })
  connectKeys(@Body() body: ConnectKeysDto, @CurrentUser() user: AuthenticatedUser): Promise<ConnectKeysResultDto> {
    return this.gateways.connectWithKeys(user, body);
  }

  @Post('disconnect')
  @ApiBody({ type: GatewayRefDto, examples: { gateway_a: { summary: 'Disconnect gateway A', value: { gateway: 'gateway_a' } } } })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400)
  @ApiOperation({ operationId: 'paymentGatewayDisconnect', description: 'Forgets the gateway\'s credentials for its current mode, and that mode\'s webhook state. Payments already made are kept.', summary: "Disconnect a gateway in its current mode (credentials and the mode's webhook state removed)" })
  @ApiOkResponse({ type: GatewayStatusDto })
  disconnect(@Body() body: GatewayRefDto): Promise<GatewayStatusDto> {
    return this.gateways.disconnect(body.gateway);
  }

  @Post('set-mode')
  @ApiBody({ type: SetModeDto, examples: { test: { summary: 'Switch gateway A to test mode', value: { gateway: 'gateway_a', mode: 'test' } } } })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400)
  @ApiOperation({ operationId: 'paymentGatewaySetMode', description: 'Switches a gateway between test and live. New payments use the new mode; each mode keeps its own credentials and webhook set-up.', summary: 'Switch a gateway between test and live mode' })
  @ApiOkResponse({ type: GatewayStatusDto })
  setMode(@Body() body: SetModeDto): Promise<GatewayStatusDto> {
    return this.gateways.setMode(body.gateway, body.mode);
  }

  @Post('set-payment-methods')
  @ApiBody({ type: SetPaymentMethodsDto, examples: { cards: { summary: 'Cards and device wallet 1 on gateway A (sepa needs the Pro plan)', value: { gateway: 'gateway_a', methods: ['ccard', 'device_wallet_1'] } } } })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400)
  @ApiOperation({ operationId: 'paymentGatewaySetPaymentMethods', description: 'Chooses which of a gateway\'s payment methods payers are offered (only that gateway\'s own method ids are accepted). A checkout with a method that is not enabled is refused.', summary: "Save a gateway's active payment methods (only that gateway's method ids)" })
  @ApiOkResponse({ type: GatewayStatusDto })
  setPaymentMethods(@Body() body: SetPaymentMethodsDto): Promise<GatewayStatusDto> {
    return this.gateways.setPaymentMethods(body.gateway, body.methods);
  }

  @Post('save-webhook-settings')
  @ApiBody({
    type: SaveWebhookSettingsDto,
    examples: {
      signing_secret: { summary: "Gateway A's signing secret for test mode", value: { gateway: 'gateway_a', mode: 'test', signing_secret: 'whsec_0123456789abcdefABCDEF' } },
    },
  })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400)
  @ApiOperation({
    operationId: 'paymentGatewaySaveWebhookSettings', description: 'For a webhook endpoint you manage yourself: store gateway A\'s signing secret and mark the set-up complete, or store gateway B\'s Webhook ID. Secrets are encrypted and only ever shown as a mask.',
    summary: "Save a mode's webhook settings: gateway A signing secret and manual-configuration flag, or gateway B Webhook ID (secrets come back masked)",
  })
  @ApiOkResponse({ type: WebhookSettingsDto })
  saveWebhookSettings(@Body() body: SaveWebhookSettingsDto): Promise<WebhookSettingsDto> {
    const { gateway, mode, ...settings } = body;
    return this.gateways.saveWebhookSettings(gateway, mode, settings);
  }

  @Post('save-settings')
  @ApiBody({
    type: SaveSettingsDto,
    examples: { rest_app: { summary: "Gateway B's REST app credentials", value: { email: 'merchant@example.com', client_id: 'AbCdEf0123456789-client', secret: 'EfGh0123456789-secret' } } },
  })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400, 502)
  @ApiResponse({
    status: 503,
    description: 'The provider could not be reached to check the credentials (`checkout_gateway_unavailable`); nothing was saved',
    schema: { $ref: getSchemaPath(WpErrorDto) },
  })
  @ApiOperation({
    operationId: 'paymentGatewaySaveSettings',
    summary: "Save gateway B's credentials (email, client id, secret) for its current mode",
    description:
      'The client id and secret are checked by asking the provider for an access token first: refused → 502 `checkout_gateway_error`, ' +
      'unreachable → 503 `checkout_gateway_unavailable`, and nothing is stored either way. The secret is stored encrypted and answered as a mask.',
  })
  @ApiOkResponse({ type: CredentialSettingsDto })
  saveSettings(@Body() body: SaveSettingsDto): Promise<CredentialSettingsDto> {
    return this.gateways.saveCredentialSettings(body);
  }

  @Post('save-payment-method-settings')
  @ApiBody({
    type: SavePaymentMethodSettingsDto,
    examples: {
      device_wallet: {
        summary: 'Device wallet 1 on gateway A for one domain',
        value: { gateway: 'gateway_a', method: 'device_wallet_1', settings: { domain_verification: true, domains: ['shop.example.com'] } },
      },
    },
  })
  @HttpCode(200)
  @AdminRoute(Capability.manageSettings)
  @ApiErrorResponses(400)
  @ApiOperation({ operationId: 'paymentGatewaySavePaymentMethodSettings', description: 'Stores the settings of one payment method, e.g. the domain verification of device wallets.', summary: 'Save the settings of one payment method (device wallets: domain verification)' })
  @ApiOkResponse({ type: PaymentMethodSettingsDto })
  savePaymentMethodSettings(@Body() body: SavePaymentMethodSettingsDto): Promise<PaymentMethodSettingsDto> {
    return this.gateways.savePaymentMethodSettings(body.gateway, body.method, body.settings);
  }
}
