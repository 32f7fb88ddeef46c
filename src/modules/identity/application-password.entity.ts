import { Entity } from 'typeorm';
import { CreatedAtColumn, DatetimeColumn, IdColumn, IntegerColumn, VarcharColumn } from '../../database/index.js';

/** An application password: only its keyed hash is stored; the password is shown once. */
@Entity({ name: 'application_passwords' })
export class ApplicationPasswordEntity {
  @IdColumn()
  id: number;

  @VarcharColumn('uuid', 36)
  uuid: string;

  @IntegerColumn('user_id')
  userId: number;

  @VarcharColumn('name', 100)
  name: string;

  @VarcharColumn('password_hash', 64)
  passwordHash: string;

  /** The fingerprint of the secret that keyed the hash (CryptoService.keyId); null until the first boot after migration 1764118000000. */
  @VarcharColumn('secret_key_id', 16, { nullable: true })
  secretKeyId: string | null;

  @CreatedAtColumn()
  createdAt: Date;

  @DatetimeColumn('last_used_at', { nullable: true })
  lastUsedAt: Date | null;

  @VarcharColumn('last_ip', 45, { nullable: true })
  lastIp: string | null;
}
