import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One user's dismissal of one notification, for the fingerprint the condition had then. */
@Entity({ name: 'checkout_notification_dismissals' })
export class NotificationDismissalEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'notification_id', type: 'varchar', length: 100 })
  notificationId: string;

  @Column({ name: 'fingerprint', type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ name: 'dismissed_at', type: 'datetime', precision: 3 })
  dismissedAt: Date;
}
