import { Entity } from 'typeorm';
import { DatetimeColumn, IdColumn, IntegerColumn, VarcharColumn } from '../../database/index.js';

/** One user's dismissal of one notification, for the fingerprint the condition had then. */
@Entity({ name: 'checkout_notification_dismissals' })
export class NotificationDismissalEntity {
  @IdColumn()
  id: number;

  @IntegerColumn('user_id')
  userId: number;

  @VarcharColumn('notification_id', 100)
  notificationId: string;

  @VarcharColumn('fingerprint', 64)
  fingerprint: string;

  @DatetimeColumn('dismissed_at')
  dismissedAt: Date;
}
