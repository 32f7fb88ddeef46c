import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A site option (the host platform's options table): a name and a JSON value. */
@Entity({ name: 'options' })
export class OptionEntity {
  @PrimaryGeneratedColumn({ name: 'option_id' })
  id: number;

  @Column({ name: 'option_name', type: 'varchar', length: 191 })
  name: string;

  @Column({ name: 'option_value', type: 'text' })
  value: string;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
