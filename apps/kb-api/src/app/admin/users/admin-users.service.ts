import { Injectable } from '@nestjs/common';
import { PasswordHasher } from '@platform/crypto';
import type { KbPrincipal } from '../../auth/kb-principal';
import { PersonalAccessTokensService } from '../../auth/personal-access-tokens.service';
import { SessionsService } from '../../auth/sessions.service';
import { TokenIdentityCache } from '../../auth/token-identity-cache';
import { KbError, KbValidationError } from '../../errors/kb-errors';
import type { Role } from '../../identity/rbac';
import { Page, pageWindow, toPage } from '../pagination';
import { RolesRepository } from '../roles/roles.repository';
import { manageRefusal, RoleHolder, roleChangeRefusal } from '../role-policy';
import {
  AdminUserRow,
  AdminUsersRepository,
  isDuplicateEmail,
  UserChanges,
} from './admin-users.repository';
import { CreateUserDto, ListUsersQueryDto, UpdateUserDto } from './admin-users.dto';

export const userNotFound = () => new KbError(404, 'not_found', 'User not found.');
const emailTaken = () => new KbValidationError({ email: ['The email has already been taken.'] });

export type UserView = ReturnType<typeof userView>;

export const userView = (u: AdminUserRow) => ({
  id: Number(u.id),
  tenant_id: u.tenant_id,
  name: u.name,
  email: u.email,
  active: u.active,
  roles: u.roles,
  email_verified_at: u.email_verified_at?.toISOString() ?? null,
  two_factor_enabled: u.two_factor_enabled,
  created_at: u.created_at.toISOString(),
  updated_at: u.updated_at.toISOString(),
});

const actorOf = (p: KbPrincipal): RoleHolder => ({ userId: p.userId ?? '', roles: p.roles, platformAdmin: p.platformAdmin, permissions: p.permissions });
const holderOf = (u: AdminUserRow): RoleHolder => ({ userId: u.id, roles: u.roles, platformAdmin: u.platform_admin });

/** Admin use cases on the active tenant's accounts, with the role-escalation rules applied. */
@Injectable()
export class AdminUsersService {
  constructor(
    private readonly users: AdminUsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly tokens: PersonalAccessTokensService,
    private readonly identities: TokenIdentityCache,
    private readonly roles: RolesRepository,
  ) {}

  async list(p: KbPrincipal, q: ListUsersQueryDto): Promise<Page<UserView>> {
    const w = pageWindow(q);
    const { rows, total } = await this.users.list(
      p.tenantId,
      { search: q.search, active: q.active, role: q.role },
      w,
    );
    return toPage(rows.map(userView), total, w);
  }

  async show(p: KbPrincipal, id: string): Promise<UserView> {
    return userView(await this.require(p, id));
  }

  /** The tenant's user, or 404 (another tenant's id included). */
  async require(p: KbPrincipal, id: string): Promise<AdminUserRow> {
    const user = await this.users.find(p.tenantId, id);
    if (!user) throw userNotFound();
    return user;
  }

  /** Each role's permissions in the tenant (its own reshaping of the defaults included). */
  private async grantsIn(tenantId: string): Promise<(role: Role) => readonly string[]> {
    const byRole = new Map((await this.roles.list(tenantId)).map((r) => [r.name, r.permissions]));
    return (role) => byRole.get(role) ?? [];
  }

  /** The tenant's user whom the caller may manage (404 foreign or missing, 403 outranking). */
  async requireManageable(p: KbPrincipal, id: string): Promise<AdminUserRow> {
    const user = await this.require(p, id);
    const refusal = manageRefusal(actorOf(p), holderOf(user));
    if (refusal) throw new KbError(403, 'role_escalation_forbidden', refusal);
    return user;
  }

  async create(p: KbPrincipal, body: CreateUserDto): Promise<UserView> {
    const roles = body.roles ?? [];
    // A new account holds nothing yet: only the roles granted need checking.
    const refusal = roleChangeRefusal(actorOf(p), { userId: '', roles: [] }, roles, await this.grantsIn(p.tenantId));
    if (refusal) throw new KbError(403, 'role_escalation_forbidden', refusal);
    const passwordHash = await this.passwords.hash(body.password);
    try {
      return userView(
        await this.users.create(
          p.tenantId,
          { name: body.name, email: body.email, passwordHash, active: body.active ?? true },
          roles,
        ),
      );
    } catch (e) {
      if (isDuplicateEmail(e)) throw emailTaken();
      throw e;
    }
  }

  async update(p: KbPrincipal, id: string, body: UpdateUserDto): Promise<UserView> {
    const target = await this.requireManageable(p, id);
    const roles: Role[] | undefined = body.roles;
    if (roles) {
      const refusal = roleChangeRefusal(actorOf(p), holderOf(target), roles, await this.grantsIn(p.tenantId));
      if (refusal) throw new KbError(403, 'role_escalation_forbidden', refusal);
    }
    if (body.active === false) this.refuseSelfDeactivation(p, target);
    const changes: UserChanges = { name: body.name, email: body.email, active: body.active };
    let updated: AdminUserRow | null;
    try {
      updated = await this.users.update(p.tenantId, id, changes, roles);
    } catch (e) {
      if (isDuplicateEmail(e)) throw emailTaken();
      throw e;
    }
    if (!updated) throw userNotFound();
    // Name, email and roles show in what a token resolves; deactivation ends its access below.
    await this.identities.invalidateUser(updated.id);
    if (!updated.active) await this.endAccess(updated.id);
    return userView(updated);
  }

  async deactivate(p: KbPrincipal, id: string): Promise<UserView> {
    const target = await this.requireManageable(p, id);
    this.refuseSelfDeactivation(p, target);
    const updated = await this.users.update(p.tenantId, id, { active: false });
    if (!updated) throw userNotFound();
    await this.endAccess(updated.id);
    return userView(updated);
  }

  private refuseSelfDeactivation(p: KbPrincipal, target: AdminUserRow): void {
    if (target.id === p.userId)
      throw new KbError(403, 'cannot_deactivate_self', 'You may not deactivate your own account.');
  }

  /** An inactive account keeps no way in: every session and personal access token ends now. */
  private async endAccess(userId: string): Promise<void> {
    await this.sessions.destroyAllOf(userId);
    await this.tokens.revokeAllOf(userId);
  }
}
