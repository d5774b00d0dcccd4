import { createHash, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AddressPolicy } from '@platform/runtime';
import { LOOPBACK_HOSTS, redirectUriProblem } from '../clients/redirect-uris';
import { SCOPE_CATALOG } from '../oauth/scopes';
import { IamConfig } from '../../config/iam-config';

/** Grants a client that was never registered may use: interactive ones only, never client_credentials. */
export const UNREGISTERED_GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

const MAX_CLIENT_ID_LENGTH = 2000;

type HostRule = { kind: 'off' } | { kind: 'any' } | { kind: 'list'; exact: Set<string>; suffixes: string[] };

function hostRule(raw: string | undefined, production: boolean): HostRule {
  // Unset: off where it would be a surprise (production), open elsewhere so MCP clients just work.
  if (raw === undefined || raw.trim() === '') return production ? { kind: 'off' } : { kind: 'any' };
  const entries = raw.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (entries.includes('none')) return { kind: 'off' };
  if (entries.includes('*')) return { kind: 'any' };
  return {
    kind: 'list',
    exact: new Set(entries.filter((e) => !e.startsWith('*.'))),
    suffixes: entries.filter((e) => e.startsWith('*.')).map((e) => e.slice(1)),
  };
}

const digest = (token: string) => createHash('sha256').update(token).digest();

/**
 * The rules for clients that were never registered by an administrator (RFC 7591 registration and
 * Client ID Metadata Documents), read once from the environment: which hosts may serve metadata
 * documents, which redirect URIs and scopes such a client may have, and the initial access tokens.
 * Such clients are always public (token_endpoint_auth_method none) and PKCE S256 is required of
 * them (the environment refuses to enable either feature with OAUTH_REQUIRE_PKCE off).
 */
@Injectable()
export class UnregisteredClientPolicy {
  readonly scopes: string[];
  readonly allowLoopback: boolean;
  /** The SSRF guard for document fetches: loopback only under the development allowance. */
  readonly addressPolicy: AddressPolicy;
  private readonly hosts: HostRule;
  private readonly tokenDigests: Buffer[];

  constructor(config: IamConfig) {
    const production = config.production;
    this.hosts = hostRule(config.get('IAM_CIMD_HOSTS'), production);
    this.allowLoopback = config.get('IAM_CIMD_ALLOW_LOOPBACK') && !production;
    this.addressPolicy = new AddressPolicy(this.allowLoopback ? ['127.0.0.0/8', '::1'] : []);
    this.scopes = [...new Set(config.get('IAM_UNREGISTERED_CLIENT_SCOPES').split(' ').filter(Boolean))];
    const unknown = this.scopes.filter((s) => !SCOPE_CATALOG.has(s));
    if (unknown.length) throw new Error(`IAM_UNREGISTERED_CLIENT_SCOPES names unknown scopes: ${unknown.join(' ')}`);
    this.tokenDigests = (config.get('IAM_REGISTRATION_INITIAL_ACCESS_TOKENS') ?? '').split(',').filter(Boolean).map(digest);
  }

  get metadataDocumentsEnabled(): boolean {
    return this.hosts.kind !== 'off';
  }

  get registrationEnabled(): boolean {
    return this.tokenDigests.length > 0;
  }

  /** Whether this client_id is to be read as the URL of a metadata document (and never as a plain id). */
  looksLikeDocumentUrl(clientId: string): boolean {
    return clientId.startsWith('https://') || (this.allowLoopback && clientId.startsWith('http://'));
  }

  /**
   * Why this client_id may not be used as a metadata document URL, or undefined when it may.
   * The URL rules of the draft: https, a path, no fragment, no user info, no dot segments (a URL
   * must already be in its normalized form, which also rules out dot segments and case tricks);
   * a query is refused too (the draft discourages it). Then the host policy.
   */
  documentUrlRefusal(clientId: string): string | undefined {
    if (!this.metadataDocumentsEnabled) return 'client ID metadata documents are not accepted';
    if (clientId.length > MAX_CLIENT_ID_LENGTH) return 'the client_id URL is too long';
    let url: URL;
    try {
      url = new URL(clientId);
    } catch {
      return 'the client_id is not a URL';
    }
    const loopback = LOOPBACK_HOSTS.has(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback && this.allowLoopback)) return 'the client_id URL must use https';
    if (url.username || url.password) return 'the client_id URL must not contain user info';
    if (url.hash || clientId.includes('#')) return 'the client_id URL must not contain a fragment';
    if (url.search || clientId.includes('?')) return 'the client_id URL must not contain a query';
    if (url.pathname === '/' || url.pathname === '') return 'the client_id URL must have a path';
    if (url.href !== clientId || /(^|\/)\.\.?(\/|$)|%2e/i.test(url.pathname)) return 'the client_id URL must be in normalized form (no dot segments)';
    if (!this.hostAllowed(url)) return `${url.host} may not serve client metadata documents`;
    return undefined;
  }

  private hostAllowed(url: URL): boolean {
    const rule = this.hosts;
    if (rule.kind === 'any') return true;
    if (rule.kind === 'off') return false;
    const host = url.hostname.toLowerCase();
    if (rule.exact.has(host) || rule.exact.has(url.host.toLowerCase())) return true;
    return rule.suffixes.some((suffix) => host.endsWith(suffix));
  }

  /**
   * Why a redirect URI is refused, or undefined: https with a host, or (RFC 8252 §7.3, native
   * apps) http on a loopback address; never a fragment or user info (the rule every client's
   * redirect URIs follow, clients/redirect-uris.ts).
   */
  redirectUriRefusal(uri: unknown): string | undefined {
    return redirectUriProblem(uri, 'loopback');
  }

  /** What the client may be granted: what it asked for within the policy; nothing asked means the whole policy. */
  grantable(requested: string | undefined): string[] {
    if (requested === undefined || requested.trim() === '') return [...this.scopes];
    const asked = new Set(requested.split(' ').filter(Boolean));
    return this.scopes.filter((s) => asked.has(s));
  }

  /** Constant-time comparison against every configured initial access token. */
  initialAccessTokenValid(token: string): boolean {
    const given = digest(token);
    let ok = false;
    for (const d of this.tokenDigests) ok = timingSafeEqual(given, d) || ok;
    return ok;
  }
}
