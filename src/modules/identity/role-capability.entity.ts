import { Entity, PrimaryColumn } from 'typeorm';
import { IdColumn, VarcharColumn } from '../../database/index.js';

@Entity({ name: 'roles' })
export class RoleEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 50 })
  name: string;

  @VarcharColumn('display_name', 100)
  displayName: string;
}

@Entity({ name: 'role_capabilities' })
export class RoleCapabilityEntity {
  @IdColumn()
  id: number;

  @VarcharColumn('role', 50)
  role: string;

  @VarcharColumn('capability', 100)
  capability: string;
}
