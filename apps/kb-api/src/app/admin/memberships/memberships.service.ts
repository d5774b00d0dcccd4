import { Injectable } from '@nestjs/common';
import type { KbPrincipal } from '../../auth/kb-principal';
import { TokenIdentityCache } from '../../auth/token-identity-cache';
import { KbError, KbValidationError } from '../../errors/kb-errors';
import { UsersRepository } from '../../identity/users.repository';
import { Page, PageQueryDto, pageWindow, toPage } from '../pagination';
import { manageRefusal } from '../role-policy';
import { AdminUsersService } from '../users/admin-users.service';
import { CreateMembershipDto, UpdateMembershipDto } from './memberships.dto';
import { MembershipRow, MembershipsRepository } from './memberships.repository';

const membershipNotFound = () => new KbError(404, 'not_found', 'Membership not found.');

export type MembershipView = ReturnType<typeof membershipView>;

export const membershipView = (m: MembershipRow) => ({
  id: Number(m.id),
  user_id: Number(m.user_id),
  tenant_id: m.tenant_id,
  project_key: m.project_key,
  role: m.role,
  scope: m.scope,
  created_at: m.created_at.toISOString(),
  updated_at: m.updated_at.toISOString(),
});

/** Project memberships of the active tenant's users; the member must be one the caller may manage. */
@Injectable()
export class MembershipsService {
  constructor(
    private readonly memberships: MembershipsRepository,
    private readonly users: AdminUsersService,
    private readonly identity: UsersRepository,
    private readonly identities: TokenIdentityCache,
  ) {}

  async listOfUser(p: KbPrincipal, userId: string, q: PageQueryDto): Promise<Page<MembershipView>> {
    const user = await this.users.require(p, userId);
    const w = pageWindow(q);
    const { rows, total } = await this.memberships.listOfUser(p.tenantId, user.id, q.search, w);
    return toPage(rows.map(membershipView), total, w);
  }

  async create(p: KbPrincipal, userId: string, body: CreateMembershipDto): Promise<MembershipView> {
    const user = await this.users.requireManageable(p, userId);
    const outcome = await this.memberships.create(p.tenantId, user.id, {
      project_key: body.project_key,
      role: body.role ?? 'member',
      scope: body.scope ?? 'full',
    });
    if ('row' in outcome) {
      // Memberships show in what a token resolves (the tenants it may enter, /api/auth/me).
      await this.identities.invalidateUser(user.id);
      return membershipView(outcome.row);
    }
    throw new KbValidationError({
      project_key: [
        outcome.problem === 'duplicate'
          ? 'The user is already a member of this project.'
          : 'The selected project key is invalid.',
      ],
    });
  }

  async show(p: KbPrincipal, id: string): Promise<MembershipView> {
    return membershipView(await this.require(p, id));
  }

  async update(p: KbPrincipal, id: string, body: UpdateMembershipDto): Promise<MembershipView> {
    const current = await this.requireManageable(p, id);
    const row = await this.memberships.update(p.tenantId, id, {
      role: body.role,
      scope: body.scope,
    });
    if (!row) throw membershipNotFound();
    await this.identities.invalidateUser(current.user_id);
    return membershipView(row);
  }

  async delete(p: KbPrincipal, id: string): Promise<void> {
    const current = await this.requireManageable(p, id);
    if (!(await this.memberships.delete(p.tenantId, id))) throw membershipNotFound();
    await this.identities.invalidateUser(current.user_id);
  }

  /** A membership in the active tenant, or 404 (another tenant's id included). */
  private async require(p: KbPrincipal, id: string): Promise<MembershipRow> {
    const row = await this.memberships.find(p.tenantId, id);
    if (!row) throw membershipNotFound();
    return row;
  }

  /**
   * A membership the caller may change. The member may be homed in another tenant (a guest of this
   * tenant's projects), so their rank is read from their roles in the active tenant.
   */
  private async requireManageable(p: KbPrincipal, id: string): Promise<MembershipRow> {
    const row = await this.require(p, id);
    const { roles, platformAdmin } = await this.identity.authorization(row.user_id, p.tenantId);
    const refusal = manageRefusal(
      { userId: p.userId ?? '', roles: p.roles, platformAdmin: p.platformAdmin },
      { userId: String(row.user_id), roles, platformAdmin },
    );
    if (refusal) throw new KbError(403, 'role_escalation_forbidden', refusal);
    return row;
  }
}
