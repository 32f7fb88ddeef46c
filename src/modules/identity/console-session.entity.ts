import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A signed-in admin console session. Only a keyed hash of its token is stored (the token lives in
 * the browser's HttpOnly cookie); the rows go with their application password or user (foreign
 * keys with ON DELETE CASCADE), and the lookup joins the password, so revoking it ends the session.
 */
@Entity({ name: 'checkout_console_sessions' })
export class ConsoleSessionEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  /** The application password it was opened with; null when it was opened with the account password. */
  @Column({ name: 'application_password_id', type: 'integer', nullable: true })
  applicationPasswordId: number | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'last_seen_at', type: 'datetime', precision: 3 })
  lastSeenAt: Date;

  /** When the session ends unless used again: the earlier of sign-in + TTL and last use + idle timeout. */
  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;
}
