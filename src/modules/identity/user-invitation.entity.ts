import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An invitation of a teammate created without a password: the keyed hash of the set-password
 * link's token (null until the invitation email is written; a new email replaces it), valid until
 * `expiresAt`, once (`usedAt`). The token itself is never stored. Deleted with its user.
 */
@Entity({ name: 'checkout_user_invitations' })
export class UserInvitationEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'invited_by', type: 'integer', nullable: true })
  invitedBy: number | null;

  @Column({ name: 'token_hash', type: 'varchar', length: 64, nullable: true })
  tokenHash: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  /** When the email with the current token was written (null: still queued) */
  @Column({ name: 'sent_at', type: 'datetime', precision: 3, nullable: true })
  sentAt: Date | null;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'datetime', precision: 3, nullable: true })
  usedAt: Date | null;
}
