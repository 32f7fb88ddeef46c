import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Row of the `checkout_form` content type; `settings` is JSON (see form-settings.ts). */
@Entity({ name: 'checkout_forms' })
export class PaymentFormEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'title', type: 'varchar', length: 200 })
  title: string;

  @Column({ name: 'status', type: 'varchar', length: 10 })
  status: string;

  @Column({ name: 'author_id', type: 'integer' })
  authorId: number;

  @Column({ name: 'settings', type: 'text' })
  settings: string;

  /** The catalog item the form was imported from (`form_template:<slug>` or `layout:<id>`); null for a form built by hand */
  @Column({ name: 'source_template', type: 'varchar', length: 120, nullable: true })
  sourceTemplate: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
