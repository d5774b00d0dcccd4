import { ROLE_GRANTS, type Role } from '../identity/rbac';
import { manageRefusal, rankOf, roleChangeRefusal } from './role-policy';

const who = (userId: string, ...roles: Role[]) => ({ userId, roles });

describe('admin role policy', () => {
  const admin = who('1', 'admin');
  const superAdmin = who('2', 'super-admin');

  it('ranks by the most powerful role', () => {
    expect(rankOf([])).toBe(0);
    expect(rankOf(['viewer', 'admin'])).toBe(4);
    expect(rankOf(['super-admin'])).toBe(5);
  });

  it('lets an admin grant roles up to their own rank, but not super-admin', () => {
    expect(roleChangeRefusal(admin, who('9', 'viewer'), ['viewer', 'editor', 'admin'])).toBeNull();
    expect(roleChangeRefusal(admin, who('9', 'viewer'), ['super-admin'])).toMatch(/super-admin/);
    expect(roleChangeRefusal(superAdmin, who('9', 'viewer'), ['super-admin'])).toBeNull();
  });

  it("refuses granting a role that carries a permission the actor lacks in the tenant, not taking it away", () => {
    const grants = (role: Role) => ROLE_GRANTS[role];
    const holdingAdmin = { ...admin, permissions: ROLE_GRANTS.admin };
    expect(roleChangeRefusal(holdingAdmin, who('9', 'viewer'), ['viewer', 'dpo'], grants)).toBe(
      'You may not grant the dpo role: it carries pii.detokenize, pii.erase, which you do not hold.',
    );
    expect(roleChangeRefusal(holdingAdmin, who('9', 'viewer', 'dpo'), ['viewer'], grants)).toBeNull();
    expect(roleChangeRefusal(holdingAdmin, who('9', 'viewer'), ['viewer', 'editor', 'admin'], grants)).toBeNull();
    // The tenant's own grants decide: a dpo role reshaped to carry only what the admin holds may be granted.
    expect(roleChangeRefusal(holdingAdmin, who('9', 'viewer'), ['dpo'], (r) => (r === 'dpo' ? ['logs.view'] : ROLE_GRANTS[r]))).toBeNull();
    expect(roleChangeRefusal({ ...holdingAdmin, platformAdmin: true }, who('9', 'viewer'), ['dpo'], grants)).toBeNull();
  });

  it('refuses any addition to your own roles, while dropping is allowed', () => {
    expect(roleChangeRefusal(admin, who('1', 'admin'), ['admin', 'editor'])).toMatch(
      /your own roles/,
    );
    expect(roleChangeRefusal(superAdmin, who('2', 'super-admin'), ['super-admin', 'dpo'])).toMatch(
      /your own roles/,
    );
    expect(
      roleChangeRefusal(who('1', 'admin', 'editor'), who('1', 'admin', 'editor'), ['admin']),
    ).toBeNull();
    expect(roleChangeRefusal(admin, who('1', 'admin'), ['admin'])).toBeNull();
  });

  it('keeps a platform administrator out of reach of every tenant role, and lets platform administrators manage each other', () => {
    const platform = { userId: '3', roles: ['super-admin'] as Role[], platformAdmin: true };
    expect(manageRefusal(superAdmin, platform)).toMatch(/platform administrator/);
    expect(roleChangeRefusal(superAdmin, platform, ['viewer'])).toMatch(/platform administrator/);
    expect(manageRefusal(superAdmin, { ...platform, roles: [] })).toMatch(/platform administrator/);
    expect(manageRefusal({ userId: '4', roles: ['viewer'], platformAdmin: true }, platform)).toBeNull();
    expect(manageRefusal(platform, platform)).toBeNull();
    expect(manageRefusal(platform, superAdmin)).toBeNull();
  });

  it('keeps users who outrank the actor out of reach', () => {
    const target = who('7', 'super-admin');
    expect(manageRefusal(admin, target)).toMatch(/outranks/);
    expect(roleChangeRefusal(admin, target, ['viewer'])).toMatch(/outranks/);
    expect(manageRefusal(admin, who('8', 'admin'))).toBeNull();
    expect(manageRefusal(superAdmin, target)).toBeNull();
  });

  it('refuses removing a role ranked above the actor', () => {
    // An admin who also reaches a user holding super-admin and viewer is already refused as outranked;
    // a dpo-less admin removing dpo (rank 3) from an editor is fine.
    expect(roleChangeRefusal(admin, who('9', 'editor', 'dpo'), ['editor'])).toBeNull();
    expect(roleChangeRefusal(who('3', 'editor'), who('9', 'viewer', 'dpo'), ['viewer'])).toMatch(
      /outranks/,
    );
    expect(
      roleChangeRefusal(who('3', 'dpo'), who('9', 'viewer', 'dpo'), ['viewer', 'dpo', 'editor']),
    ).toBeNull();
    expect(roleChangeRefusal(who('3', 'dpo'), who('9', 'viewer'), ['admin'])).toMatch(
      /ranks above yours/,
    );
  });
});
