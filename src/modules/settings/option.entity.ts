import { Entity } from 'typeorm';
import { IdColumn, TextColumn, UpdatedAtColumn, VarcharColumn } from '../../database/index.js';

/** A site option (the host platform's options table): a name and a JSON value. */
@Entity({ name: 'options' })
export class OptionEntity {
  @IdColumn('option_id')
  id: number;

  @VarcharColumn('option_name', 191)
  name: string;

  @TextColumn('option_value')
  value: string;

  @UpdatedAtColumn()
  updatedAt: Date;
}
