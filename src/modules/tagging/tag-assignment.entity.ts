import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One user's answer in one tagging area (unique per user and area; a new answer replaces it). */
@Entity({ name: 'checkout_tag_assignments' })
export class TagAssignmentEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'area_slug', type: 'varchar', length: 40 })
  areaSlug: string;

  /** JSON array of feature tags of the area */
  @Column({ name: 'tags', type: 'text' })
  tags: string;

  @Column({ name: 'email_address', type: 'varchar', length: 254 })
  emailAddress: string;

  @Column({ name: 'first_name', type: 'varchar', length: 100 })
  firstName: string;

  @Column({ name: 'last_name', type: 'varchar', length: 100 })
  lastName: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
