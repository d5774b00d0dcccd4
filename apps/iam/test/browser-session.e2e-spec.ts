import { PasswordHasher } from '@platform/crypto';
import { RunningService } from '@platform/testing';
import * as oidc from 'openid-client';
import { ClientsRepository } from '../src/app/clients/clients.repository';
import { UsersRepository } from '../src/app/users/users.repository';
import { authorizeWithPassword, HttpBrowser, returnToOf } from './http-login';
import { startIam } from './iam-test-env';

const PASSWORD = 'a browser session test password';
const REDIRECT = 'http://127.0.0.1:4996/cb';
const TO_SIGN_IN_THEN_ACCOUNT = '/login?return_to=%2Flogin%2Faccount';

/**
 * The sign-in pages read the browser session through the `iam-session` passport strategy. What a
 * browser without a usable session gets is each page's own answer: sign in first (account pages),
 * the sign-in form in place (step-up, consent), "signed out", or an expired page before anything.
 */
describe('iam browser sessions: what each page answers with, and without, a session', () => {
  let iam: RunningService & { issuer: string };

  beforeAll(async () => {
    iam = await startIam();
    const hash = await new PasswordHasher().hash(PASSWORD);
    const users = iam.app.get(UsersRepository);
    for (const name of ['kim', 'lee', 'max']) await users.upsertByEmail(`${name}@example.test`, name, hash);
    const clients = iam.app.get(ClientsRepository);
    for (const [clientId, firstParty] of [['first', true], ['third', false]] as const) {
      await clients.upsert({ clientId, name: clientId, isConfidential: false, tokenEndpointAuthMethod: 'none', grantTypes: ['authorization_code'], redirectUris: [REDIRECT], scopes: ['openid'], firstParty });
    }
  });

  afterAll(() => iam.stop());

  async function authorizeUrl(clientId: string) {
    const url = new URL(`${iam.url}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    }).toString();
    return url.pathname + url.search;
  }

  async function signedIn(email: string): Promise<HttpBrowser> {
    const browser = new HttpBrowser(iam.url);
    const done = await authorizeWithPassword(browser, await authorizeUrl('first'), email, PASSWORD);
    expect(new URL(done.location!).searchParams.get('code')).toBeTruthy();
    return browser;
  }

  /** A browser whose page (the sign-in form) gave it a CSRF token, and no session. */
  async function anonymous(): Promise<{ browser: HttpBrowser; csrf: string }> {
    const browser = new HttpBrowser(iam.url);
    const page = await (await browser.request('/login')).text();
    return { browser, csrf: /name="csrf" value="([^"]+)"/.exec(page)![1] };
  }

  const form = (fields: Record<string, string>): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const json = (body: unknown, csrf?: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(csrf === undefined ? {} : { 'x-csrf-token': csrf }) },
    body: JSON.stringify(body),
  });

  it('sends a browser without a session from every account page to sign in, then back to the account', async () => {
    const { browser, csrf } = await anonymous();
    const answers = [
      await browser.request('/login/account'),
      await browser.request('/login/account/totp'),
      await browser.request('/login/account/totp/start', form({})),
      await browser.request('/login/account/totp/confirm', form({ csrf, code: '000000' })),
      await browser.request('/login/account/totp/disable', form({ csrf })),
      await browser.request('/login/account/passkeys/delete', form({ csrf, credential_id: 'abc' })),
    ];
    for (const res of answers) {
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(TO_SIGN_IN_THEN_ACCOUNT);
    }
  });

  it('shows the account to its session, and treats an ended session (a copied cookie) and a disabled user as none', async () => {
    const browser = await signedIn('kim@example.test');
    const copied = browser.cookieHeader;
    const page = await (await browser.request('/login/account')).text();
    expect(page).toContain('Signed in as <strong>kim@example.test</strong> (assurance level aal1)');
    expect((await browser.submit(page, '/login/logout', {})).status).toBe(200);
    const replay = await fetch(`${iam.url}/login/account`, { redirect: 'manual', headers: { cookie: copied } });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe(TO_SIGN_IN_THEN_ACCOUNT);

    const disabled = await signedIn('lee@example.test');
    const users = iam.app.get(UsersRepository);
    const lee = (await users.findForLoginByEmail('lee@example.test'))!;
    await users.setActive(lee.id, false);
    try {
      const res = await disabled.request('/login/account');
      expect(res.headers.get('location')).toBe(TO_SIGN_IN_THEN_ACCOUNT);
    } finally {
      await users.setActive(lee.id, true);
    }
    expect((await disabled.request('/login/account')).status).toBe(200);
  });

  it("answers the account's passkey calls with an expired page before a missing session, in JSON", async () => {
    const { browser, csrf } = await anonymous();
    for (const path of ['/login/account/passkeys/options', '/login/account/passkeys/verify']) {
      const expired = await browser.request(path, json({}));
      expect({ status: expired.status, body: await expired.json() }).toEqual({ status: 403, body: { message: 'This page expired. Reload it and try again.' } });
      const ended = await browser.request(path, json({ name: 'key', credential: { id: 'x' } }, csrf));
      expect({ status: ended.status, body: await ended.json() }).toEqual({ status: 401, body: { message: 'Your session ended. Sign in again.' } });
    }
  });

  it("names the session's user in passkey options only for a step-up", async () => {
    const { browser: nobody, csrf } = await anonymous();
    const anonymousStepUp = await (await nobody.request('/login/passkey/options', json({ step_up: true }, csrf))).json();
    expect(anonymousStepUp).not.toHaveProperty('allowCredentials');

    const browser = await signedIn('max@example.test');
    const page = await (await browser.request('/login/account')).text();
    const token = /name="csrf" value="([^"]+)"/.exec(page)![1];
    const stepUp = await (await browser.request('/login/passkey/options', json({ step_up: true }, token))).json();
    expect(stepUp).toHaveProperty('allowCredentials', []);
    const signIn = await (await browser.request('/login/passkey/options', json({}, token))).json();
    expect(signIn).not.toHaveProperty('allowCredentials');
  });

  it('answers authorize, step-up, consent and sign-out without a session as before: sign in, or say so', async () => {
    const { browser, csrf } = await anonymous();
    const authorize = await authorizeUrl('third');
    const toLogin = await browser.request(authorize);
    expect(toLogin.status).toBe(302);
    expect(toLogin.headers.get('location')).toBe(`/login?return_to=${encodeURIComponent(authorize)}`);

    // Step-up and consent show the sign-in form in place, which comes back to them.
    for (const res of [
      await browser.request(`/login/step-up?return_to=${encodeURIComponent(authorize)}`),
      await browser.request('/login/step-up', form({ csrf, return_to: authorize, code: '123456' })),
      await browser.request(`/login/consent?return_to=${encodeURIComponent(authorize)}`),
      await browser.request('/login/consent', form({ return_to: authorize, decision: 'allow' })),
    ]) {
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).toContain('action="/login"');
      expect(returnToOf(page)).toBe(authorize);
    }
    // A consent request that is not valid is refused whether or not there is a session.
    const invalid = await browser.request('/login/consent?return_to=%2Fnot-an-authorization');
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain('This authorization request cannot be completed.');

    const logout = await browser.request('/login/logout');
    expect(logout.status).toBe(200);
    expect(await logout.text()).toContain('There is no active session in this browser.');
  });
});
