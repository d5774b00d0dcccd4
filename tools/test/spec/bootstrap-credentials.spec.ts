import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

interface Credential {
  value: string;
  shown: string;
  isDefault?: boolean;
}
interface Credentials {
  iamClient: { id: Credential; secret: Credential };
  iamUser: { email: Credential; password: Credential };
  kbAdmin: { email: Credential; password: Credential };
}
interface CredentialsModule {
  DEV_DEFAULTS: { iamClient: { id: string; secret: string }; iamUser: { email: string; password: string }; kbAdmin: { email: string; password: string } };
  bootstrapCredentials(env: Record<string, string>): Credentials;
  kbLoginArgument(kbAdmin: Credentials['kbAdmin']): string;
}
let bootstrapCredentials: CredentialsModule['bootstrapCredentials'];
let kbLoginArgument: CredentialsModule['kbLoginArgument'];
let DEV_DEFAULTS: CredentialsModule['DEV_DEFAULTS'];
beforeAll(async () => {
  ({ bootstrapCredentials, kbLoginArgument, DEV_DEFAULTS } = (await import(path.join(ROOT, 'tools/dev/bootstrap-credentials.mjs'))) as CredentialsModule);
});
const source = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe("npm start's banner credentials", () => {
  it('mirrors the development defaults the services seed', () => {
    const iam = source('apps/iam/src/app/seed.service.ts');
    expect(iam).toContain(`DEV_BOOTSTRAP_CLIENT = { id: '${DEV_DEFAULTS.iamClient.id}', secret: '${DEV_DEFAULTS.iamClient.secret}' }`);
    expect(iam).toContain(`DEV_BOOTSTRAP_USER = { email: '${DEV_DEFAULTS.iamUser.email}', password: '${DEV_DEFAULTS.iamUser.password}' }`);
    expect(source('apps/kb-api/src/app/identity/bootstrap-admin.ts')).toContain(
      `DEV_ADMIN = { email: '${DEV_DEFAULTS.kbAdmin.email}', password: '${DEV_DEFAULTS.kbAdmin.password}' }`,
    );
  });

  it('prints the defaults when nothing is set', () => {
    const c = bootstrapCredentials({});
    expect(c.iamClient.id.shown).toBe('platform-bootstrap');
    expect(c.iamClient.secret.shown).toBe('dev-bootstrap-secret-change-me');
    expect(c.iamUser.password.shown).toBe('dev-admin-password-change-me');
    expect(kbLoginArgument(c.kbAdmin)).toBe(`'{"email":"admin@example.com","password":"dev-admin-password-change-me"}'`);
  });

  it('prints the ids in effect and never a secret the person set', () => {
    const env = {
      IAM_BOOTSTRAP_CLIENT_ID: 'ops-client',
      IAM_BOOTSTRAP_CLIENT_SECRET: 'their-secret',
      IAM_BOOTSTRAP_USER_EMAIL: 'ops@example.org',
      IAM_BOOTSTRAP_USER_PASSWORD: 'their-password',
      KB_BOOTSTRAP_ADMIN_EMAIL: 'kb@example.org',
      KB_BOOTSTRAP_ADMIN_PASSWORD: 'their-kb-password',
    };
    const c = bootstrapCredentials(env);
    expect(c.iamClient.id.shown).toBe('ops-client');
    expect(c.iamClient.secret.shown).toBe('(from IAM_BOOTSTRAP_CLIENT_SECRET)');
    expect(c.iamUser.email.shown).toBe('ops@example.org');
    expect(c.iamUser.password.shown).toBe('(from IAM_BOOTSTRAP_USER_PASSWORD)');
    expect(c.kbAdmin.password.shown).toBe('(from KB_BOOTSTRAP_ADMIN_PASSWORD)');
    const printed = JSON.stringify([c.iamClient.id, c.iamClient.secret, c.iamUser.email, c.iamUser.password, c.kbAdmin.email, c.kbAdmin.password].map((x) => x.shown)) + kbLoginArgument(c.kbAdmin);
    for (const secret of ['their-secret', 'their-password', 'their-kb-password']) expect(printed).not.toContain(secret);
    expect(kbLoginArgument(c.kbAdmin)).toContain('$KB_BOOTSTRAP_ADMIN_PASSWORD');
  });
});
