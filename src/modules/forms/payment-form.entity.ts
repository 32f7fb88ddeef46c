import { Entity } from 'typeorm';
import { CreatedAtColumn, IdColumn, IntegerColumn, TextColumn, UpdatedAtColumn, VarcharColumn } from '../../database/index.js';

/** Row of the `checkout_form` content type; `settings` is JSON (see form-settings.ts). */
@Entity({ name: 'checkout_forms' })
export class PaymentFormEntity {
  @IdColumn()
  id: number;

  @VarcharColumn('title', 200)
  title: string;

  @VarcharColumn('status', 10)
  status: string;

  @IntegerColumn('author_id')
  authorId: number;

  @TextColumn('settings')
  settings: string;

  /** The catalog item the form was imported from (`form_template:<slug>` or `layout:<id>`); null for a form built by hand */
  @VarcharColumn('source_template', 120, { nullable: true })
  sourceTemplate: string | null;

  @CreatedAtColumn()
  createdAt: Date;

  @UpdatedAtColumn()
  updatedAt: Date;
}
