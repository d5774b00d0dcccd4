import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
} from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { PageQueryDto } from '../pagination';
import { CreateMembershipDto, UpdateMembershipDto } from './memberships.dto';
import { MembershipsService } from './memberships.service';
import { RecordIdPipe } from '../../conversations/record-id';

const userRowId = new RecordIdPipe('User');
const membershipId = new RecordIdPipe('Membership');

/** /api/admin/users/{user}/memberships and /api/admin/memberships/{id} behind gate G1. */
@Controller('api/admin')
@RequireRole('admin', 'super-admin')
export class MembershipsController {
  constructor(private readonly memberships: MembershipsService) {}

  @Get('users/:user/memberships')
  list(@Param('user', userRowId) userId: string, @Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.memberships.listOfUser(req.kbPrincipal!, userId, q);
  }

  @Post('users/:user/memberships')
  @HttpCode(201)
  async create(
    @Param('user', userRowId) userId: string,
    @Body() body: CreateMembershipDto,
    @Req() req: KbRequest,
  ) {
    return { data: await this.memberships.create(req.kbPrincipal!, userId, body) };
  }

  @Get('memberships/:id')
  async show(@Param('id', membershipId) id: string, @Req() req: KbRequest) {
    return { data: await this.memberships.show(req.kbPrincipal!, id) };
  }

  @Patch('memberships/:id')
  async update(@Param('id', membershipId) id: string, @Body() body: UpdateMembershipDto, @Req() req: KbRequest) {
    return { data: await this.memberships.update(req.kbPrincipal!, id, body) };
  }

  @Delete('memberships/:id')
  @HttpCode(204)
  async delete(@Param('id', membershipId) id: string, @Req() req: KbRequest) {
    await this.memberships.delete(req.kbPrincipal!, id);
  }
}
