import { Entity } from 'typeorm';
import { CreatedAtColumn, DatetimeColumn, IdColumn, IntegerColumn, VarcharColumn } from '../../database/index.js';

/**
 * A signed-in admin console session. Only a keyed hash of its token is stored (the token lives in
 * the browser's HttpOnly cookie); the rows go with their application password or user (foreign
 * keys with ON DELETE CASCADE), and the lookup joins the password, so revoking it ends the session.
 */
@Entity({ name: 'checkout_console_sessions' })
export class ConsoleSessionEntity {
  @IdColumn()
  id: number;

  @VarcharColumn('token_hash', 64)
  tokenHash: string;

  @IntegerColumn('user_id')
  userId: number;

  /** The application password it was opened with; null when it was opened with the account password. */
  @IntegerColumn('application_password_id', { nullable: true })
  applicationPasswordId: number | null;

  @CreatedAtColumn()
  createdAt: Date;

  @DatetimeColumn('last_seen_at')
  lastSeenAt: Date;

  /** When the session ends unless used again: the earlier of sign-in + TTL and last use + idle timeout. */
  @DatetimeColumn('expires_at')
  expiresAt: Date;
}
