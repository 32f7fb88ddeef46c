import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ROUTE_AUTH, type RouteAuth } from '../../common/auth/index.js';
import type { CheckoutGateway } from '../gateways/index.js';
import { readPaymentReference } from './payment-reference.reader.js';
import type { PaymentRecord } from './payment-record.js';
import { PaymentReferenceService } from './payment-reference.service.js';

const ROUTE_GATEWAY = 'checkout:payment-reference-gateway';
const OPENS_CHECKOUT = 'checkout:payment-reference-opens-checkout';
const VERIFIED = Symbol('checkout:verified-payment');

type VerifiedRequest = Request & { [VERIFIED]?: PaymentRecord };

/** On a `@PaymentReferenceRoute()`: the route serves only this gateway's payments. */
export function ForGateway(gateway: CheckoutGateway): MethodDecorator & ClassDecorator {
  return SetMetadata(ROUTE_GATEWAY, gateway);
}

/**
 * On a `@PaymentReferenceRoute()` that opens a checkout at the provider (an intent, an order): a
 * payment whose form is no longer published is refused with 409 before the handler runs.
 */
export function OpensCheckout(): MethodDecorator {
  return SetMetadata(OPENS_CHECKOUT, true);
}

/** The payment record whose reference the PaymentReferenceGuard verified for this request. */
export const VerifiedPayment = createParamDecorator((_data: unknown, context: ExecutionContext): PaymentRecord => {
  const payment = context.switchToHttp().getRequest<VerifiedRequest>()[VERIFIED];
  // Only a @PaymentReferenceRoute() handler can ask for it; anything else is a wiring mistake.
  if (!payment) throw new Error('@VerifiedPayment() used on a route without @PaymentReferenceRoute()');
  return payment;
});

/**
 * The one check every public payment route goes through (global guard, after the throttler and
 * the authorisation guard): for each route declared `@PaymentReferenceRoute()` it validates the
 * reference fields of the body and runs PaymentReferenceService.verify, so a wrong reference is a
 * 400/403 before the handler, its pipes or any provider call run. Other routes pass untouched.
 */
@Injectable()
export class PaymentReferenceGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly references: PaymentReferenceService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const auth = this.reflector.getAllAndOverride<RouteAuth | undefined>(ROUTE_AUTH, targets);
    if (auth?.kind !== 'payment_reference') return true;

    const request = context.switchToHttp().getRequest<VerifiedRequest>();
    const reference = await readPaymentReference(request.body);

    const gateway = this.reflector.getAllAndOverride<CheckoutGateway | undefined>(ROUTE_GATEWAY, targets);
    const opensCheckout = this.reflector.get<boolean | undefined>(OPENS_CHECKOUT, context.getHandler()) === true;
    request[VERIFIED] = await this.references.verify(reference, { gateway, opensCheckout });
    return true;
  }
}
