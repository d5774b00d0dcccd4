import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiGuarded, ApiNotFound, ApiPage, ApiTenantHeader, ApiValidationFailed } from '../../api-docs';
import { ApiRowIdParam } from '../../api-docs/params';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { CreateUserDto, ListUsersQueryDto, UpdateUserDto } from './admin-users.dto';
import { AdminUsersService } from './admin-users.service';
import { UserViewDto } from './user-view.dto';
import { RecordIdPipe } from '../../conversations/record-id';

const userRowId = new RecordIdPipe('User');
const G1 = 'Gate G1 (`role:admin|super-admin`) in the active tenant.';
const ESCALATION =
  "403 `role_escalation_forbidden` when the target outranks the caller, a role above the caller's rank (or super-admin, unless the caller is one) is granted or removed, or the caller adds roles to themselves.";

/** /api/admin/users behind gate G1, in the active tenant. */
@ApiTags('Admin: users')
@ApiTenantHeader()
@ApiGuarded()
@Controller('api/admin/users')
@RequireRole('admin', 'super-admin')
export class AdminUsersController {
  constructor(private readonly users: AdminUsersService) {}

  @Get()
  @ApiOperation({ summary: 'Users of the active tenant (home tenant), by id', description: G1 })
  @ApiPage(UserViewDto, 'A page of users')
  @ApiValidationFailed()
  list(@Query() q: ListUsersQueryDto, @Req() req: KbRequest) {
    return this.users.list(req.kbPrincipal!, q);
  }

  @Post()
  @ApiOperation({
    summary: 'Creates a user homed in the active tenant with roles there',
    description: `${G1} The email's identity key (trimmed, lower-cased) is unique platform-wide; the password is stored as an argon2id hash. ${ESCALATION}`,
  })
  @ApiData(UserViewDto, { status: 201, description: 'Created' })
  @ApiValidationFailed('Invalid body, or `errors.email` when the email is taken')
  @HttpCode(201)
  async create(@Body() body: CreateUserDto, @Req() req: KbRequest) {
    return { data: await this.users.create(req.kbPrincipal!, body) };
  }

  @Get(':user')
  @ApiOperation({ summary: 'One user of the active tenant', description: G1 })
  @ApiRowIdParam('User id (of the active tenant)', 'user')
  @ApiData(UserViewDto, { description: 'The user' })
  @ApiNotFound('user')
  async show(@Param('user', userRowId) id: string, @Req() req: KbRequest) {
    return { data: await this.users.show(req.kbPrincipal!, id) };
  }

  @Patch(':user')
  @ApiOperation({
    summary: 'Changes name, email, active and the role set in the active tenant',
    description: `${G1} \`roles\` replaces the set. \`active: false\` deactivates as the deactivate route does. ${ESCALATION} Deactivating yourself answers 403 \`cannot_deactivate_self\`.`,
  })
  @ApiRowIdParam('User id (of the active tenant)', 'user')
  @ApiData(UserViewDto, { description: 'The updated user' })
  @ApiNotFound('user')
  @ApiValidationFailed()
  async update(@Param('user', userRowId) id: string, @Body() body: UpdateUserDto, @Req() req: KbRequest) {
    return { data: await this.users.update(req.kbPrincipal!, id, body) };
  }

  @Post(':user/deactivate')
  @ApiOperation({
    summary: 'Deactivates the account and ends all its sessions and personal access tokens',
    description: `${G1} The account is global: it can no longer sign in anywhere. 403 \`cannot_deactivate_self\` for yourself; 403 \`role_escalation_forbidden\` when the user outranks you.`,
  })
  @ApiRowIdParam('User id (of the active tenant)', 'user')
  @ApiData(UserViewDto, { description: 'The deactivated user' })
  @ApiNotFound('user')
  @HttpCode(200)
  async deactivate(@Param('user', userRowId) id: string, @Req() req: KbRequest) {
    return { data: await this.users.deactivate(req.kbPrincipal!, id) };
  }
}
