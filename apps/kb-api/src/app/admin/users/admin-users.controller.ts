import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { CreateUserDto, ListUsersQueryDto, UpdateUserDto } from './admin-users.dto';
import { AdminUsersService } from './admin-users.service';
import { RecordIdPipe } from '../../conversations/record-id';

const userRowId = new RecordIdPipe('User');

/** /api/admin/users behind gate G1, in the active tenant. */
@Controller('api/admin/users')
@RequireRole('admin', 'super-admin')
export class AdminUsersController {
  constructor(private readonly users: AdminUsersService) {}

  @Get()
  list(@Query() q: ListUsersQueryDto, @Req() req: KbRequest) {
    return this.users.list(req.kbPrincipal!, q);
  }

  @Post()
  @HttpCode(201)
  async create(@Body() body: CreateUserDto, @Req() req: KbRequest) {
    return { data: await this.users.create(req.kbPrincipal!, body) };
  }

  @Get(':user')
  async show(@Param('user', userRowId) id: string, @Req() req: KbRequest) {
    return { data: await this.users.show(req.kbPrincipal!, id) };
  }

  @Patch(':user')
  async update(@Param('user', userRowId) id: string, @Body() body: UpdateUserDto, @Req() req: KbRequest) {
    return { data: await this.users.update(req.kbPrincipal!, id, body) };
  }

  @Post(':user/deactivate')
  @HttpCode(200)
  async deactivate(@Param('user', userRowId) id: string, @Req() req: KbRequest) {
    return { data: await this.users.deactivate(req.kbPrincipal!, id) };
  }
}
