import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'checkout_tags' })
export class TagEntity {
  @PrimaryGeneratedColumn({ name: 'tag_id' })
  id: number;

  @Column({ name: 'tag', type: 'varchar', length: 100 })
  tag: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
