import { Entity } from 'typeorm';
import { CreatedAtColumn, IdColumn, VarcharColumn } from '../../database/index.js';

@Entity({ name: 'checkout_tags' })
export class TagEntity {
  @IdColumn('tag_id')
  id: number;

  @VarcharColumn('tag', 100)
  tag: string;

  @CreatedAtColumn()
  createdAt: Date;
}
