import { Entity } from 'typeorm';
import { CreatedAtColumn, IdColumn, IntegerColumn, TextColumn, UpdatedAtColumn, VarcharColumn } from '../../database/index.js';

/** A page of the host platform; full-page layouts are imported into it as drafts. `content` is JSON. */
@Entity({ name: 'pages' })
export class PageEntity {
  @IdColumn()
  id: number;

  @VarcharColumn('title', 200)
  title: string;

  @VarcharColumn('status', 10)
  status: string;

  @IntegerColumn('author_id')
  authorId: number;

  @VarcharColumn('layout_id', 100)
  layoutId: string;

  @TextColumn('content')
  content: string;

  @CreatedAtColumn()
  createdAt: Date;

  @UpdatedAtColumn()
  updatedAt: Date;
}
