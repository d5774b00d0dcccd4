import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { PasswordHasher } from '@platform/crypto';
import { RunningService } from '@platform/testing';
import * as oidc from 'openid-client';
import { TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ClientsRepository } from '../../src/app/clients/clients.repository';
import { UsersRepository } from '../../src/app/users/users.repository';
import { startIam } from '../iam-test-env';
import { launchChromium, requireChromium, screenshotPath } from './chromium';
import { startUpstreamProvider } from './upstream-provider';

requireChromium();
jest.setTimeout(120_000);

const PASSWORD = 'a long enough demo password';
const UPSTREAM_CLIENT = { clientId: 'iam-at-upstream', clientSecret: 'upstream-secret-0123456789' };

type Claims = Record<string, unknown>;
const decode = (jwt: string): Claims => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

describe('iam interactive login in Chromium', () => {
  let iam: RunningService & { issuer: string };
  let upstream: { issuer: string; close: () => Promise<void> };
  let callbackServer: Server;
  let callback: string;
  let browser: Browser;
  const userIds: Record<string, string> = {};

  beforeAll(async () => {
    upstream = await startUpstreamProvider({
      ...UPSTREAM_CLIENT,
      users: [
        { sub: 'up-dana', email: 'dana@example.test', email_verified: true, name: 'Dana', amr: ['pwd', 'otp'] },
        { sub: 'up-mallory', email: 'ada@example.test', email_verified: false, name: 'Mallory' },
      ],
    });
    callbackServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Client</title><h1>Signed in</h1>'));
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
    callback = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
    iam = await startIam(
      {
        IAM_SOCIAL_ISSUER: upstream.issuer,
        IAM_SOCIAL_CLIENT_ID: UPSTREAM_CLIENT.clientId,
        IAM_SOCIAL_CLIENT_SECRET: UPSTREAM_CLIENT.clientSecret,
        IAM_SOCIAL_NAME: 'Upstream ID',
      },
      'localhost',
    );
    const hash = await new PasswordHasher().hash(PASSWORD);
    const users = iam.app.get(UsersRepository);
    for (const name of ['ada', 'bob', 'carol', 'dana']) userIds[name] = (await users.upsertByEmail(`${name}@example.test`, name[0].toUpperCase() + name.slice(1), hash)).id;
    const clients = iam.app.get(ClientsRepository);
    await clients.upsert({
      clientId: 'web',
      name: 'Knowledge base',
      isConfidential: false,
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: [callback],
      scopes: ['openid', 'email', 'profile', 'kb:read'],
      firstParty: true,
    });
    await clients.upsert({
      clientId: 'partner',
      name: 'Partner Reports',
      isConfidential: false,
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code'],
      redirectUris: [callback],
      scopes: ['openid', 'email'],
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await iam?.stop();
    await upstream?.close();
    await new Promise((resolve) => callbackServer?.close(resolve));
  });

  async function startAuthorization(page: Page, clientId: string, extra: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = new URL(`${iam.issuer}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback,
      scope: clientId === 'web' ? 'openid email profile kb:read' : 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      ...extra,
    }).toString();
    await page.goto(url.toString());
    return { verifier, clientId };
  }

  /** Waits for the client's callback, then redeems the code like the client would. */
  async function finish(page: Page, flow: { verifier: string; clientId: string }): Promise<{ id: Claims; access: Claims }> {
    await page.waitForURL((u) => u.href.startsWith(callback));
    const code = new URL(page.url()).searchParams.get('code');
    expect(code).toBeTruthy();
    const r = await fetch(`${iam.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: flow.clientId, code: code!, redirect_uri: callback, code_verifier: flow.verifier }),
    });
    const body = (await r.json()) as Record<string, string>;
    expect(r.status).toBe(200);
    return { id: decode(body['id_token']), access: decode(body['access_token']) };
  }

  async function shot(page: Page, name: string) {
    await page.screenshot({ path: screenshotPath(name), fullPage: true });
  }

  async function fillPassword(page: Page, email: string, password = PASSWORD) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  async function withContext<T>(fn: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
    const context = await browser.newContext();
    context.setDefaultTimeout(15_000);
    const errors: string[] = [];
    context.on('weberror', (e) => errors.push(e.error().message));
    context.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    try {
      return await fn(await context.newPage(), context);
    } catch (e) {
      throw new Error(`${(e as Error).message}\npage errors: ${errors.join(' | ') || 'none'}`);
    } finally {
      await context.close();
    }
  }

  it('signs in with a password through the authorize flow, shows errors next to the form, and signs out', async () => {
    await withContext(async (page) => {
      const flow = await startAuthorization(page, 'web');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByText('to continue to Knowledge base').waitFor();
      await shot(page, '01-login');

      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page.locator('#f-email-error').textContent()).resolves.toBe('Enter your email address.');
      await expect(page.getByLabel('Email').getAttribute('aria-invalid')).resolves.toBe('true');
      await shot(page, '02-login-missing-fields');

      await fillPassword(page, 'ada@example.test', 'wrong password');
      await expect(page.getByRole('alert').first().textContent()).resolves.toBe('Email or password is incorrect.');
      await expect(page.locator(':focus').getAttribute('id')).resolves.toBe('f-password');
      await shot(page, '03-login-wrong-password');

      await fillPassword(page, 'ada@example.test');
      const { id, access } = await finish(page, flow);
      expect(id).toMatchObject({ sub: userIds['ada'], acr: 'aal1', amr: ['pwd'], aud: 'web' });
      expect(typeof id['auth_time']).toBe('number');
      expect(access).toMatchObject({ sub: userIds['ada'], acr: 'aal1', amr: ['pwd'] });

      await page.goto(`${iam.issuer}/login/account`);
      await page.getByText('Signed in as ada@example.test').waitFor();
      await shot(page, '04-account');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
      await shot(page, '05-signed-out');
      await startAuthorization(page, 'web');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    });
  });

  it('enrols TOTP from a QR code page, then signs in with password and a computed code at aal2', async () => {
    await withContext(async (page) => {
      await page.goto(`${iam.issuer}/login/account`);
      await fillPassword(page, 'bob@example.test');
      await page.getByRole('button', { name: 'Set up authenticator app' }).click();
      await page.locator('.qr svg').waitFor();
      await shot(page, '06-totp-enrol');
      const secret = (await page.locator('[data-totp-secret]').textContent())!;
      const totp = new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' });
      await page.getByLabel('Code from the app').fill('000000' === totp.generate() ? '111111' : '000000');
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.locator('#f-code-error').waitFor();
      await shot(page, '07-totp-enrol-wrong-code');
      await page.getByLabel('Code from the app').fill(totp.generate());
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.locator('[data-recovery-codes]').waitFor();
      const recoveryCodes = await page.locator('[data-recovery-codes] li').allTextContents();
      expect(recoveryCodes).toHaveLength(10);
      await shot(page, '08-totp-recovery-codes');
      await page.goto(`${iam.issuer}/login/logout`);
      await page.getByRole('button', { name: 'Sign out' }).click();

      const flow = await startAuthorization(page, 'web');
      await fillPassword(page, 'bob@example.test');
      await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
      await shot(page, '09-totp-login');
      // The enrolment spent the current time step; the next one is inside the accepted window.
      await page.getByLabel('Authentication code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
      await page.getByRole('button', { name: 'Verify' }).click();
      const { id, access } = await finish(page, flow);
      expect(id).toMatchObject({ sub: userIds['bob'], acr: 'aal2' });
      expect(id['amr']).toEqual(expect.arrayContaining(['pwd', 'otp', 'mfa']));
      expect(access).toMatchObject({ acr: 'aal2' });

      // A recovery code stands in for the app once; then the app can be turned off (from aal2 only).
      await page.goto(`${iam.issuer}/login/logout`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.goto(`${iam.issuer}/login/account`);
      await fillPassword(page, 'bob@example.test');
      await page.getByLabel('Authentication code').fill(recoveryCodes[0].trim());
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('assurance level aal2').waitFor();
      await page.getByRole('button', { name: 'Turn off authenticator app' }).click();
      await page.getByText('Authenticator app removed.').waitFor();
      await shot(page, '09b-totp-disabled');
      await expect(page.getByRole('button', { name: 'Set up authenticator app' }).isVisible()).resolves.toBe(true);
    });
  });

  it('registers a passkey with the virtual authenticator, signs in with it at aal2, and steps up an aal1 session on acr_values', async () => {
    await withContext(async (page, context) => {
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });

      await page.goto(`${iam.issuer}/login/account`);
      await fillPassword(page, 'carol@example.test');
      await page.getByLabel('Name for a new passkey').fill('Test laptop');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.waitForURL((u) => u.search.includes('added=passkey'));
      await page.getByText('Test laptop').waitFor();
      await shot(page, '10-passkey-registered');
      await page.getByRole('button', { name: 'Sign out' }).click();

      const flow = await startAuthorization(page, 'web');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      const passkey = await finish(page, flow);
      expect(passkey.id).toMatchObject({ sub: userIds['carol'], acr: 'aal2' });
      expect(passkey.id['amr']).toEqual(expect.arrayContaining(['user', 'mfa']));

      // A password-only session is aal1 until the client asks for more.
      await page.goto(`${iam.issuer}/login/logout`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      const pwdFlow = await startAuthorization(page, 'web');
      await fillPassword(page, 'carol@example.test');
      const pwd = await finish(page, pwdFlow);
      expect(pwd.id).toMatchObject({ sub: userIds['carol'], acr: 'aal1', amr: ['pwd'] });

      const stepFlow = await startAuthorization(page, 'web', { acr_values: 'aal2' });
      await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
      await shot(page, '11-step-up');
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      const stepped = await finish(page, stepFlow);
      expect(stepped.id).toMatchObject({ sub: userIds['carol'], acr: 'aal2' });
      expect(stepped.id['amr']).toEqual(expect.arrayContaining(['pwd', 'user', 'mfa']));
      expect(stepped.id['auth_time'] as number).toBeGreaterThanOrEqual(pwd.id['auth_time'] as number);
    });
  });

  it('asks for consent for a third-party client once', async () => {
    await withContext(async (page) => {
      const flow = await startAuthorization(page, 'partner');
      await fillPassword(page, 'ada@example.test');
      await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
      await shot(page, '12-consent');
      await page.getByRole('button', { name: 'Allow' }).click();
      const { id } = await finish(page, flow);
      expect(id).toMatchObject({ sub: userIds['ada'], aud: 'partner' });
      const again = await startAuthorization(page, 'partner');
      await finish(page, again);
    });
  });

  it('signs in through the upstream OpenID provider, linking by verified email only and mapping its amr to an AAL', async () => {
    await withContext(async (page) => {
      const flow = await startAuthorization(page, 'web');
      await page.getByRole('link', { name: 'Continue with Upstream ID' }).click();
      await page.getByRole('heading', { name: 'Upstream provider' }).waitFor();
      await shot(page, '13-upstream-provider');
      await page.getByRole('button', { name: 'Sign in as Dana' }).click();
      const { id } = await finish(page, flow);
      // Linked to the existing account with the same, verified email; pwd+otp upstream is aal2.
      expect(id).toMatchObject({ sub: userIds['dana'], acr: 'aal2', amr: ['fed', 'mfa'] });
    });
    await withContext(async (page) => {
      await startAuthorization(page, 'web');
      await page.getByRole('link', { name: 'Continue with Upstream ID' }).click();
      await page.getByRole('button', { name: 'Sign in as Mallory' }).click();
      await page.getByRole('heading', { name: 'Sign-in refused' }).waitFor();
      await page.getByText('no verified email address').waitFor();
      await shot(page, '14-upstream-unverified-email');
    });
  });
});
