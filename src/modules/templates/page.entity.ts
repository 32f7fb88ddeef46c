import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A page of the host platform; full-page layouts are imported into it as drafts. `content` is JSON. */
@Entity({ name: 'pages' })
export class PageEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'title', type: 'varchar', length: 200 })
  title: string;

  @Column({ name: 'status', type: 'varchar', length: 10 })
  status: string;

  @Column({ name: 'author_id', type: 'integer' })
  authorId: number;

  @Column({ name: 'layout_id', type: 'varchar', length: 100 })
  layoutId: string;

  @Column({ name: 'content', type: 'text' })
  content: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
