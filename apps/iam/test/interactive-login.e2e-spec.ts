import { PasswordHasher } from '@platform/crypto';
import { RunningService } from '@platform/testing';
import * as oidc from 'openid-client';
import { ClientsRepository } from '../src/app/clients/clients.repository';
import { DataSource } from 'typeorm';
import { Clock } from '@platform/runtime';
import { SessionsPurger } from '../src/app/session/sessions-purger';
import { SessionsRepository } from '../src/app/session/sessions.repository';
import { UsersRepository } from '../src/app/users/users.repository';
import { LoginThrottle } from '../src/app/login/login-throttle.service';
import { TotpService } from '../src/app/login/totp.service';
import { authorizeWithPassword, HttpBrowser, returnToOf } from './http-login';
import { startIam } from './iam-test-env';

const PASSWORD = 'another long test password';
const REDIRECT = 'http://127.0.0.1:4998/cb';

describe('iam interactive login over HTTP: throttling, generic errors, CSRF, sessions, max_age, acr_values', () => {
  let iam: RunningService & { issuer: string };

  beforeAll(async () => {
    iam = await startIam({ IAM_LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', IAM_LOGIN_MAX_FAILURES_PER_IP: '1000' });
    const hash = await new PasswordHasher().hash(PASSWORD);
    const users = iam.app.get(UsersRepository);
    for (const name of ['erin', 'frank', 'gus', 'hal', 'jo', 'kim']) await users.upsertByEmail(`${name}@example.test`, name, hash);
    const inactive = await users.upsertByEmail('ivy@example.test', 'Ivy', hash);
    await users.setActive(inactive.id, false);
    await iam.app.get(ClientsRepository).upsert({
      clientId: 'app',
      name: 'App',
      isConfidential: false,
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code'],
      redirectUris: [REDIRECT],
      scopes: ['openid'],
      firstParty: true,
    });
  });

  afterAll(() => iam.stop());

  async function authorizeUrl(extra: Record<string, string> = {}) {
    const url = new URL(`${iam.url}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: 'app',
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      ...extra,
    }).toString();
    return url.pathname + url.search;
  }

  async function loginPage(browser: HttpBrowser) {
    const page = await (await browser.follow(await browser.request(await authorizeUrl()))).res.text();
    return { page, returnTo: returnToOf(page) };
  }

  async function attempt(browser: HttpBrowser, email: string, password: string) {
    const { page, returnTo } = await loginPage(browser);
    const res = await browser.submit(page, '/login', { email, password, return_to: returnTo });
    return { status: res.status, body: res.status === 303 ? '' : await res.text() };
  }

  const alertOf = (body: string) => /role="alert" id="form-error">([^<]*)</.exec(body)?.[1];

  it('answers a wrong password, an unknown email and a disabled account with the same generic error', async () => {
    const browser = new HttpBrowser(iam.url);
    const wrong = await attempt(browser, 'gus@example.test', 'not the password');
    const unknown = await attempt(browser, 'nobody@example.test', PASSWORD);
    const disabled = await attempt(browser, 'ivy@example.test', PASSWORD);
    for (const r of [wrong, unknown, disabled]) {
      expect(r.status).toBe(401);
      expect(alertOf(r.body)).toBe('Email or password is incorrect.');
    }
  });

  it('throttles an account after repeated failures, even with the right password, and says so without naming the account', async () => {
    const browser = new HttpBrowser(iam.url);
    for (let i = 0; i < 3; i++) expect((await attempt(browser, 'frank@example.test', 'nope')).status).toBe(401);
    const locked = await attempt(browser, 'frank@example.test', PASSWORD);
    expect(locked.status).toBe(429);
    expect(alertOf(locked.body)).toMatch(/Too many failed attempts/);
    // Unknown accounts are throttled the same way.
    for (let i = 0; i < 3; i++) await attempt(browser, 'ghost@example.test', 'nope');
    expect((await attempt(browser, 'ghost@example.test', 'nope')).status).toBe(429);
    // Another account from the same IP is not affected by this account's lock.
    expect((await attempt(browser, 'erin@example.test', PASSWORD)).status).toBe(303);
  });

  it('checks at most the limit of a burst of concurrent wrong passwords; the rest are refused unchecked', async () => {
    const browser = new HttpBrowser(iam.url);
    const { page, returnTo } = await loginPage(browser);
    const burst = await Promise.all(Array.from({ length: 20 }, () => browser.submit(page, '/login', { email: 'jo@example.test', password: 'nope', return_to: returnTo })));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    expect((await attempt(browser, 'jo@example.test', PASSWORD)).status).toBe(429);
  });

  it('checks at most the limit of a burst of concurrent wrong second-factor codes', async () => {
    const users = iam.app.get(UsersRepository);
    const kim = (await users.findForLoginByEmail('kim@example.test'))!;
    await iam.app.get(TotpService).begin(kim);
    await users.enableTotp(kim.id, new Date());
    const browser = new HttpBrowser(iam.url);
    const { page, returnTo } = await loginPage(browser);
    const signedIn = await browser.submit(page, '/login', { email: 'kim@example.test', password: PASSWORD, return_to: returnTo });
    expect(signedIn.headers.get('location')).toMatch(/^\/login\/second-factor\?/);
    const codePage = await (await browser.follow(signedIn)).res.text();
    const burst = await Promise.all(Array.from({ length: 20 }, () => browser.submit(codePage, '/login/second-factor', { code: 'wrong-code', return_to: returnTo })));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });

  it('lets a success clear the failures already counted, but not the attempts still being checked', async () => {
    const throttle = iam.app.get(LoginThrottle);
    const checked: string[] = [];
    const held: Array<() => void> = [];
    // Two wrong guesses still being checked when the right password arrives.
    const inFlight = [1, 2].map((n) =>
      throttle.attempt('lou@example.test', '203.0.113.7', () => {
        checked.push(`held ${n}`);
        return new Promise<null>((resolve) => held.push(() => resolve(null)));
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await throttle.attempt('lou@example.test', '203.0.113.7', async () => ({ ok: true }))).toEqual({ ok: true });
    // The success leaves the two in flight counted: of a burst sent now only one more is checked.
    const burst = await Promise.all(Array.from({ length: 5 }, () => throttle.attempt('lou@example.test', '203.0.113.7', async () => (checked.push('burst'), null))));
    expect(burst.filter((r) => r === 'invalid')).toHaveLength(1);
    expect(burst.filter((r) => r === 'throttled')).toHaveLength(4);
    held.forEach((release) => release());
    expect(await Promise.all(inFlight)).toEqual(['invalid', 'invalid']);
    expect(checked).toEqual(['held 1', 'held 2', 'burst']);
    expect(await throttle.attempt('lou@example.test', '203.0.113.7', async () => ({ ok: true }))).toBe('throttled');
  });

  it('carries a long authorization request through sign-in, and refuses an over-long return_to visibly', async () => {
    // A request of about 4 KB (a long state) comes back with its code after the sign-in.
    const state = 's'.repeat(4000);
    const signedIn = await authorizeWithPassword(new HttpBrowser(iam.url), await authorizeUrl({ state }), 'erin@example.test', PASSWORD);
    expect(signedIn.location).toBeDefined();
    const back = new URL(signedIn.location!);
    expect(back.searchParams.get('code')).toBeTruthy();
    expect(back.searchParams.get('state')).toBe(state);

    // Past the limit (8 KiB) the page says so, in the link and in the form alike, rather than
    // sending the user to their account page once signed in.
    const overLong = `/oauth/authorize?client_id=app&state=${'s'.repeat(8200)}`;
    const page = await fetch(`${iam.url}/login?return_to=${encodeURIComponent(overLong)}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('This sign-in request is too long');
    const browser = new HttpBrowser(iam.url);
    const { page: form } = await loginPage(browser);
    const posted = await browser.submit(form, '/login', { email: 'erin@example.test', password: PASSWORD, return_to: overLong });
    expect(posted.status).toBe(400);
    expect(posted.headers.get('set-cookie') ?? '').not.toContain('iam_session=');

    // The authorize endpoint sends such a request back to the client instead of to the sign-in page.
    const tooLong = await fetch(`${iam.url}${await authorizeUrl({ state: 's'.repeat(8200) })}`, { redirect: 'manual' });
    const refused = new URL(tooLong.headers.get('location')!);
    expect(refused.origin + refused.pathname).toBe(REDIRECT);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses a form without the CSRF token', async () => {
    const browser = new HttpBrowser(iam.url);
    const { returnTo } = await loginPage(browser);
    const res = await browser.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'erin@example.test', password: PASSWORD, return_to: returnTo }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie') ?? '').not.toContain('iam_session=');
  });

  it('answers array-shaped form fields with the form and its errors, not a server error', async () => {
    const browser = new HttpBrowser(iam.url);
    const { page, returnTo } = await loginPage(browser);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
    const res = await browser.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${csrf}&email[]=erin%40example.test&password[a]=x&return_to=${encodeURIComponent(returnTo)}`,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Enter your email address.');
  });

  it('serves pages with a strict CSP and no external assets, and never redirects outside', async () => {
    const res = await fetch(`${iam.url}/login?return_to=${encodeURIComponent('https://evil.example/')}`);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await res.text();
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(returnToOf(page)).toBe('/login/account');
  });

  it('keeps sessions in Postgres: logout ends the session even for a copied cookie', async () => {
    const browser = new HttpBrowser(iam.url);
    const first = await authorizeWithPassword(browser, await authorizeUrl(), 'hal@example.test', PASSWORD);
    expect(new URL(first.location!).searchParams.get('code')).toBeTruthy();
    const copied = browser.cookieHeader;
    const account = await browser.request('/login/account');
    const page = await account.text();
    expect(page).toContain('hal@example.test');
    const out = await browser.submit(page, '/login/logout', {});
    expect(out.status).toBe(200);
    const replay = await fetch(`${iam.url}${await authorizeUrl()}`, { redirect: 'manual', headers: { cookie: copied } });
    expect(replay.headers.get('location')).toMatch(/^\/login\?/);

    // The ended session is deleted by the daily purge once it is a day old.
    const db = iam.app.get(DataSource);
    const count = async () => (await db.query(`SELECT count(*)::int AS n FROM iam_sessions s JOIN iam_users u ON u.id = s.user_id WHERE u.email = 'hal@example.test'`))[0].n;
    expect(await count()).toBe(1);
    iam.app.get(Clock).advance(25 * 3600 * 1000);
    expect((await new SessionsPurger(new SessionsRepository(db), iam.app.get(Clock)).purge()).purged).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(0);
  });

  it('asks again when the session is older than max_age, and drops max_age from the way back', async () => {
    const browser = new HttpBrowser(iam.url);
    await authorizeWithPassword(browser, await authorizeUrl(), 'erin@example.test', PASSWORD);
    const fresh = await browser.request(await authorizeUrl({ max_age: '60' }));
    expect(new URL(fresh.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    iam.app.get(Clock).advance(120_000);
    const stale = await browser.request(await authorizeUrl({ max_age: '60' }));
    const location = stale.headers.get('location')!;
    expect(location).toMatch(/^\/login\?return_to=/);
    expect(decodeURIComponent(location)).not.toContain('max_age');
  });

  it('maps acr_values: aal2 on an aal1 session means step-up (or interaction_required with prompt=none); aal3 is unmet', async () => {
    const browser = new HttpBrowser(iam.url);
    await authorizeWithPassword(browser, await authorizeUrl(), 'erin@example.test', PASSWORD);
    const stepUp = await browser.request(await authorizeUrl({ acr_values: 'aal2' }));
    expect(stepUp.headers.get('location')).toMatch(/^\/login\/step-up\?return_to=/);
    const page = await (await browser.follow(stepUp)).res.text();
    // erin has no second factor yet: the page says how to get one instead of failing silently.
    expect(page).toContain('A second factor is required');
    const none = await browser.request(await authorizeUrl({ acr_values: 'aal2', prompt: 'none' }));
    expect(new URL(none.headers.get('location')!).searchParams.get('error')).toBe('interaction_required');
    const aal3 = await browser.request(await authorizeUrl({ acr_values: 'aal3' }));
    expect(new URL(aal3.headers.get('location')!).searchParams.get('error')).toBe('unmet_authentication_requirements');
    const either = await browser.request(await authorizeUrl({ acr_values: 'aal3 aal1' }));
    expect(new URL(either.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });
});
