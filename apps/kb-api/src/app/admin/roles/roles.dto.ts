import { ArrayUnique, IsArray, IsIn } from 'class-validator';
import { Permission, PERMISSIONS } from '../../identity/rbac';

export class UpdateRoleDto {
  @IsArray({ message: 'The permissions field must be an array.' })
  @ArrayUnique({ message: 'The permissions field has a duplicate value.' })
  @IsIn(PERMISSIONS, { each: true, message: 'The selected permissions are invalid.' })
  permissions!: Permission[];
}
