import { DataSource } from 'typeorm';
import { createUser, KbClient, UserFixture } from './kb-fixtures';

/** A user created in the database plus a personal access token of theirs (bearer calls need no CSRF). */
export interface Caller {
  id: string;
  email: string;
  password: string;
  token: string;
}

export async function callerWith(baseUrl: string, db: DataSource, u: UserFixture): Promise<Caller> {
  const user = await createUser(db, u);
  const r = await new KbClient(baseUrl).call('POST', '/api/auth/token', {
    body: { email: user.email, password: user.password },
  });
  if (r.status !== 201) throw new Error(`token issue for ${user.email} answered ${r.status}`);
  return { ...user, token: r.body.token };
}

/** A signed-in cookie session (the SPA's client). */
export async function sessionOf(
  baseUrl: string,
  user: { email: string; password: string },
): Promise<KbClient> {
  const c = new KbClient(baseUrl);
  const r = await c.call('POST', '/api/auth/login', {
    body: { email: user.email, password: user.password },
  });
  if (r.status !== 200) throw new Error(`login of ${user.email} answered ${r.status}`);
  return c;
}
