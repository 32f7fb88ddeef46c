import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'roles' })
export class RoleEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 50 })
  name: string;

  @Column({ name: 'display_name', type: 'varchar', length: 100 })
  displayName: string;
}

@Entity({ name: 'role_capabilities' })
export class RoleCapabilityEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'role', type: 'varchar', length: 50 })
  role: string;

  @Column({ name: 'capability', type: 'varchar', length: 100 })
  capability: string;
}
