import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'user_login', type: 'varchar', length: 60 })
  login: string;

  @Column({ name: 'user_email', type: 'varchar', length: 100 })
  email: string;

  @Column({ name: 'display_name', type: 'varchar', length: 250 })
  displayName: string;

  @Column({ name: 'role', type: 'varchar', length: 50 })
  role: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  /** The last console sign-in (null: never signed in to the console) */
  @Column({ name: 'last_sign_in_at', type: 'datetime', precision: 3, nullable: true })
  lastSignInAt: Date | null;
}
