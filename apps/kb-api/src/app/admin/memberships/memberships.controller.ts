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
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiGuarded, ApiNotFound, ApiPage, ApiTenantHeader, ApiValidationFailed } from '../../api-docs';
import { ApiRowIdParam } from '../../api-docs/params';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { PageQueryDto } from '../pagination';
import { CreateMembershipDto, UpdateMembershipDto } from './memberships.dto';
import { MembershipViewDto } from './membership-view.dto';
import { MembershipsService } from './memberships.service';
import { RecordIdPipe } from '../../conversations/record-id';

const userRowId = new RecordIdPipe('User');
const membershipId = new RecordIdPipe('Membership');
const G1 = 'Gate G1 (`role:admin|super-admin`) in the active tenant.';
const OUTRANKED = `${G1} 403 \`role_escalation_forbidden\` when the member outranks you in the tenant.`;

/** /api/admin/users/{user}/memberships and /api/admin/memberships/{id} behind gate G1. */
@ApiTags('Admin: memberships')
@ApiTenantHeader()
@ApiGuarded()
@Controller('api/admin')
@RequireRole('admin', 'super-admin')
export class MembershipsController {
  constructor(private readonly memberships: MembershipsService) {}

  @Get('users/:user/memberships')
  @ApiOperation({ summary: "A user's project memberships in the active tenant", description: `${G1} \`search\` matches the project key.` })
  @ApiRowIdParam('User id (of the active tenant)', 'user')
  @ApiPage(MembershipViewDto, 'A page of memberships')
  @ApiNotFound('user')
  @ApiValidationFailed()
  list(@Param('user', userRowId) userId: string, @Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.memberships.listOfUser(req.kbPrincipal!, userId, q);
  }

  @Post('users/:user/memberships')
  @ApiOperation({
    summary: 'Adds the user to a project of the active tenant',
    description: `${G1} 422 \`errors.project_key\` when the project does not exist in the tenant or the user is already a member.`,
  })
  @ApiRowIdParam('User id (of the active tenant)', 'user')
  @ApiData(MembershipViewDto, { status: 201, description: 'Created' })
  @ApiNotFound('user')
  @ApiValidationFailed()
  @HttpCode(201)
  async create(
    @Param('user', userRowId) userId: string,
    @Body() body: CreateMembershipDto,
    @Req() req: KbRequest,
  ) {
    return { data: await this.memberships.create(req.kbPrincipal!, userId, body) };
  }

  @Get('memberships/:id')
  @ApiOperation({ summary: 'One membership of the active tenant', description: G1 })
  @ApiRowIdParam('Membership id (of the active tenant)')
  @ApiData(MembershipViewDto, { description: 'The membership' })
  @ApiNotFound('membership')
  async show(@Param('id', membershipId) id: string, @Req() req: KbRequest) {
    return { data: await this.memberships.show(req.kbPrincipal!, id) };
  }

  @Patch('memberships/:id')
  @ApiOperation({ summary: "Changes a membership's role or scope", description: OUTRANKED })
  @ApiRowIdParam('Membership id (of the active tenant)')
  @ApiData(MembershipViewDto, { description: 'The updated membership' })
  @ApiNotFound('membership')
  @ApiValidationFailed()
  async update(@Param('id', membershipId) id: string, @Body() body: UpdateMembershipDto, @Req() req: KbRequest) {
    return { data: await this.memberships.update(req.kbPrincipal!, id, body) };
  }

  @Delete('memberships/:id')
  @ApiOperation({ summary: 'Removes a membership', description: OUTRANKED })
  @ApiRowIdParam('Membership id (of the active tenant)')
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFound('membership')
  @HttpCode(204)
  async delete(@Param('id', membershipId) id: string, @Req() req: KbRequest) {
    await this.memberships.delete(req.kbPrincipal!, id);
  }
}
