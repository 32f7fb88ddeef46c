import { Entity } from 'typeorm';
import { CreatedAtColumn, IdColumn, IntegerColumn, TextColumn, UpdatedAtColumn, VarcharColumn } from '../../database/index.js';

/** One user's answer in one tagging area (unique per user and area; a new answer replaces it). */
@Entity({ name: 'checkout_tag_assignments' })
export class TagAssignmentEntity {
  @IdColumn()
  id: number;

  @IntegerColumn('user_id')
  userId: number;

  @VarcharColumn('area_slug', 40)
  areaSlug: string;

  /** JSON array of feature tags of the area */
  @TextColumn('tags')
  tags: string;

  @VarcharColumn('email_address', 254)
  emailAddress: string;

  @VarcharColumn('first_name', 100)
  firstName: string;

  @VarcharColumn('last_name', 100)
  lastName: string;

  @CreatedAtColumn()
  createdAt: Date;

  @UpdatedAtColumn()
  updatedAt: Date;
}
