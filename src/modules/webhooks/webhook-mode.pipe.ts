import { Injectable, NotFoundException, type PipeTransform } from '@nestjs/common';
import { type GatewayMode, isGatewayMode } from '../gateways/index.js';

/** `{mode}` of a webhook URL: `test` or `live`; anything else is an unknown route (404 `rest_no_route`). */
@Injectable()
export class WebhookModePipe implements PipeTransform<string, GatewayMode> {
  transform(value: string): GatewayMode {
    if (!isGatewayMode(value)) throw new NotFoundException();
    return value;
  }
}
