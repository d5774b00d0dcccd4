import { randomBytes, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
// @peculiar/x509 resolves its parts through tsyringe, which needs the metadata API loaded first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import type { Browser } from 'playwright-core';

/**
 * What an MCP client needs around it to sign a user in through iam, for the platform e2e test:
 * a loopback redirect target, a Client ID Metadata Document host, an OAuthClientProvider of the
 * MCP SDK, and the user at the real sign-in pages in Chromium.
 */

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(String((server.address() as AddressInfo).port))));
}
const closer = (server: Server) => () => new Promise<void>((resolve) => server.close(() => resolve()));

/** The client's loopback redirect URI (RFC 8252): the browser lands here with the code. */
export async function startCallbackServer(): Promise<LocalServer> {
  const server = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Signed in. You can close this window.</p>'));
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/callback`, close: closer(server) };
}

/** A certificate for https://127.0.0.1, made for the run; iam trusts it through NODE_EXTRA_CA_CERTS. */
export interface LoopbackCertificate {
  certPath: string;
  cert: Buffer;
  key: Buffer;
  remove(): void;
}

export async function loopbackCertificate(): Promise<LoopbackCertificate> {
  // Made in process (WebCrypto + @peculiar/x509), so the test needs nothing but Node.
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomBytes(8).toString('hex'),
      name: 'CN=127.0.0.1',
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + 24 * 3600_000),
      keys,
      signingAlgorithm: alg,
      extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'ip', value: '127.0.0.1' }]), new x509.BasicConstraintsExtension(true, undefined, true)],
    },
    webcrypto as unknown as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1],
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const cert = Buffer.from(certificate.toString('pem'));
  const key = Buffer.from(`-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`);
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-oauth-tls-'));
  const certPath = path.join(dir, 'cert.pem');
  writeFileSync(certPath, cert);
  return { certPath, cert, key, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Serves a Client ID Metadata Document over https on 127.0.0.1: the MCP SDK takes only an https
 * client_id URL, and iam fetches it (loopback allowed by IAM_CIMD_ALLOW_LOOPBACK, a test policy).
 */
export async function startMetadataDocumentServer(tls: LoopbackCertificate, document: (clientId: string) => object): Promise<LocalServer & { clientId: string; fetches: number }> {
  const state = { fetches: 0, clientId: '' };
  const server = createHttpsServer({ cert: tls.cert, key: tls.key }, (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' || req.url !== '/oauth/client.json') return void res.writeHead(404).end();
    state.fetches++;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end(JSON.stringify(document(state.clientId)));
  });
  const port = await listen(server);
  state.clientId = `https://127.0.0.1:${port}/oauth/client.json`;
  return {
    url: `https://127.0.0.1:${port}`,
    get clientId() {
      return state.clientId;
    },
    get fetches() {
      return state.fetches;
    },
    close: closer(server),
  };
}

/** One HTTP exchange of a client, as the test's fetch saw it. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  requestBody: string;
  challenge: string | null;
}

/**
 * The fetch an MCP client is given: records every exchange and, for a client that registers
 * itself, presents the initial access token at the registration endpoint (RFC 7591 §3; the SDK
 * has no setting of its own for it).
 */
export function recordingFetch(log: Exchange[], registration?: { endpoint: string; initialAccessToken: string }) {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    if (registration && url === registration.endpoint && init?.method === 'POST') headers.set('authorization', `Bearer ${registration.initialAccessToken}`);
    const r = await fetch(url, { ...init, headers });
    log.push({ method: init?.method ?? 'GET', url, status: r.status, requestBody: typeof init?.body === 'string' || init?.body instanceof URLSearchParams ? String(init.body) : '', challenge: r.headers.get('www-authenticate') });
    return r;
  };
}

/**
 * The MCP SDK's OAuthClientProvider, kept in memory as a desktop client would keep it on disk.
 * `redirectToAuthorization` hands the URL to the user (here: Chromium driven through the real
 * sign-in and consent pages) and keeps the code the browser came back with.
 */
export class InMemoryOAuthClientProvider implements OAuthClientProvider {
  readonly authorizationUrls: URL[] = [];
  readonly clientMetadataUrl?: string;
  callback?: URL;
  private information?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier?: string;

  constructor(
    private readonly o: { redirectUrl: string; clientMetadataUrl?: string; authorize: (url: URL) => Promise<URL> },
  ) {
    this.clientMetadataUrl = o.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.o.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MCP SDK test client',
      redirect_uris: [this.o.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    this.callback = await this.o.authorize(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE verifier was saved');
    return this.verifier;
  }

  /** The code the browser brought back. */
  get code(): string {
    const code = this.callback?.searchParams.get('code');
    if (!code) throw new Error(`the browser came back without a code: ${this.callback?.href}`);
    return code;
  }
}

/** What the user saw and where the browser ended. */
export interface SignIn {
  callback: URL;
  consentPage: string;
}

/**
 * The user at iam's real pages in a fresh browser profile: sign in with e-mail and password, allow
 * the client on the consent page, and come back to the client's redirect URI.
 */
export async function signInAndAllow(browser: Browser, authorizationUrl: URL, redirectUri: string, user: { email: string; password: string }): Promise<SignIn> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(authorizationUrl.href);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
    const consentPage = await page.locator('main').innerText();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.href.startsWith(redirectUri));
    return { callback: new URL(page.url()), consentPage };
  } finally {
    await context.close();
  }
}
