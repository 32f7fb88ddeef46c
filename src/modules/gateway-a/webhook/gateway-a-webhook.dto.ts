import { ApiProperty } from '@nestjs/swagger';
import { GATEWAY_A_WEBHOOK_EVENTS } from './webhook-contract.js';

/** `data` of an event: the object the event is about. */
export class GatewayAEventDataDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The PaymentIntent, SetupIntent, Invoice or Subscription, in the gateway\'s wire format',
  })
  object: Record<string, unknown>;
}

/**
 * The gateway's event envelope. Documentation only: the route verifies the signature over the raw
 * bytes and reads the event from those bytes, never through the validation pipe.
 */
export class GatewayAEventEnvelopeDto {
  @ApiProperty({ example: 'evt_1QvP5n2eZvKYlo2C', maxLength: 191 })
  id: string;

  @ApiProperty({ example: 'event' })
  object: string;

  @ApiProperty({ example: 'payment_intent.succeeded', description: `Applied: ${GATEWAY_A_WEBHOOK_EVENTS.join(', ')}; any other type is stored and ignored` })
  type: string;

  @ApiProperty({ example: 1764115200, description: 'Unix seconds' })
  created: number;

  @ApiProperty({ description: 'Must be true on the live endpoint and false on the test endpoint' })
  livemode: boolean;

  @ApiProperty({ required: false, nullable: true, example: '2026-10-28.endive' })
  api_version?: string | null;

  @ApiProperty({ type: GatewayAEventDataDto })
  data: GatewayAEventDataDto;
}
