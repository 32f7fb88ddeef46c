import { ApiProperty } from '@nestjs/swagger';

export const WEBHOOK_OUTCOMES = ['processed', 'ignored', 'rejected', 'duplicate'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** What every provider callback answers (200): the provider must not retry. */
export class WebhookReceiptDto {
  @ApiProperty({ example: true })
  received: true;

  /**
   * processed: applied (or already there); ignored: nothing to do (event type outside the contract,
   * unknown payment, late event); rejected: disagrees with the record (logged as a contract
   * mismatch, the record is not moved); duplicate: this event was handled before, nothing changed
   */
  @ApiProperty({ enum: WEBHOOK_OUTCOMES, example: 'processed' })
  outcome: WebhookOutcome;
}
