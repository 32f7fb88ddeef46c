import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An application password: only its keyed hash is stored; the password is shown once. */
@Entity({ name: 'application_passwords' })
export class ApplicationPasswordEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'uuid', type: 'varchar', length: 36 })
  uuid: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'name', type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 64 })
  passwordHash: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'datetime', precision: 3, nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'last_ip', type: 'varchar', length: 45, nullable: true })
  lastIp: string | null;
}
