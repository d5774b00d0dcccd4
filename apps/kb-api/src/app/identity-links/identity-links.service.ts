import { Injectable } from '@nestjs/common';
import { KbError, KbValidationError } from '../errors/kb-errors';
import { manageRefusal, RoleHolder } from '../admin/role-policy';
import { UsersRepository } from '../identity/users.repository';
import { IdentityLinkRow, IdentityLinksRepository } from './identity-links.repository';

/** The KB user an iam identity acts as, and how the two were matched. */
export interface LinkedUser {
  userId: string;
  tenantId: string;
  via: 'link' | 'email';
}

const view = (r: IdentityLinkRow) => ({ id: r.id, issuer: r.issuer, subject: r.subject, user_id: r.user_id, created_by: r.created_by, created_at: r.created_at });

/**
 * iam user ↔ KB user (docs/kb-mcp.md): an explicit link a tenant's admin created for the token's
 * issuer and subject wins, unless the token's verified e-mail names a user of another tenant;
 * otherwise the token's e-mail, when iam vouches for it (`email_verified: true`), names the KB user
 * with that e-mail, if the KB verified it too. An inactive user matches nobody.
 */
@Injectable()
export class IdentityLinksService {
  constructor(
    private readonly links: IdentityLinksRepository,
    private readonly users: UsersRepository,
  ) {}

  async resolve(claims: Record<string, unknown>): Promise<LinkedUser | null> {
    const issuer = claims['iss'];
    const subject = claims['sub'];
    if (typeof issuer !== 'string' || typeof subject !== 'string') return null;
    const byEmail = await this.byVerifiedEmail(claims);
    const link = await this.links.findBySubject(issuer, subject);
    if (link) {
      const user = await this.users.findById(link.user_id);
      const linked: LinkedUser | null = user?.active ? { userId: user.id, tenantId: user.tenant_id, via: 'link' } : null;
      // A link is one tenant admin's word; a verified e-mail is iam's. An identity whose verified e-mail already names a
      // user of another tenant stays that user: a link made elsewhere cannot pull it (and what it asks and reads) into
      // the linking tenant. Within one tenant the admin's link decides.
      if (linked && byEmail && byEmail.tenantId !== linked.tenantId) return byEmail;
      return linked;
    }
    return byEmail;
  }

  /** The KB user whose e-mail iam vouches for (`email_verified: true`) and the KB verified too, when active. */
  private async byVerifiedEmail(claims: Record<string, unknown>): Promise<LinkedUser | null> {
    const email = claims['email'];
    if (typeof email !== 'string' || email === '' || claims['email_verified'] !== true) return null;
    const user = await this.users.findByEmail(email);
    if (!user?.active || !user.email_verified_at) return null;
    return { userId: user.id, tenantId: user.tenant_id, via: 'email' };
  }

  async list(tenantId: string) {
    return { data: (await this.links.list(tenantId)).map(view) };
  }

  async create(tenantId: string, actor: RoleHolder, body: { issuer: string; subject: string; user_id: string }) {
    const user = await this.users.findById(body.user_id);
    // Only a user of this tenant can be linked: the link decides the tenant an iam token acts in.
    if (!user || user.tenant_id !== tenantId) {
      throw new KbValidationError({ user_id: ['The selected user id is invalid.'] });
    }
    // The linked identity acts as the user: linking one's own identity to an account one may not manage would be a
    // takeover of it (a tenant super-admin acting as a platform administrator over MCP).
    const { roles, platformAdmin } = await this.users.authorization(user.id, tenantId);
    const refusal = manageRefusal(actor, { userId: user.id, roles, platformAdmin });
    if (refusal) throw new KbError(403, 'role_escalation_forbidden', refusal);
    const createdBy = actor.userId === '' ? null : actor.userId;
    const row = await this.links.insert({ tenantId, issuer: body.issuer, subject: body.subject, userId: user.id, createdBy });
    if (!row) throw new KbError(409, 'identity_link_exists', 'This identity is linked already.');
    return { data: view(row) };
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!(await this.links.delete(tenantId, id))) throw new KbError(404, 'not_found', 'Identity link not found.');
  }
}
