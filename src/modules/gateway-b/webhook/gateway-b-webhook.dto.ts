import { ApiProperty } from '@nestjs/swagger';

/**
 * PayPal's webhook event envelope. Documentation only: the route verifies the delivery with PayPal
 * over the raw bytes and reads the event from those bytes, never through the validation pipe.
 */
export class GatewayBEventEnvelopeDto {
  @ApiProperty({ example: 'WH-58D329510W468432D-8HN650336L201105X', maxLength: 128 })
  id: string;

  @ApiProperty({ example: 'PAYMENT.CAPTURE.COMPLETED', description: 'Applied: PAYMENT.CAPTURE.COMPLETED; PAYMENT.CAPTURE.REFUNDED, PAYMENT.CAPTURE.REVERSED and CUSTOMER.DISPUTE.* have the payment holding the capture read again from its order (docs/decisions.md §16); any other type is stored and ignored' })
  event_type: string;

  @ApiProperty({ example: 'capture', required: false })
  resource_type?: string;

  @ApiProperty({ example: '1.0', required: false })
  event_version?: string;

  @ApiProperty({ example: '2026-11-25T10:00:00.000Z', required: false })
  create_time?: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The capture: `id`, `status`, `amount {currency_code, value}`, `custom_id` (payment id), `invoice_id`, `supplementary_data.related_ids.order_id`',
  })
  resource: Record<string, unknown>;
}
