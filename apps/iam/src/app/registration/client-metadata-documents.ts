import { Injectable } from '@nestjs/common';
import { guardedFetch } from '@platform/runtime';
import { Clock } from '@platform/runtime';
import { UNREGISTERED_GRANT_TYPES, UnregisteredClientPolicy } from './unregistered-client-policy';
import { IamConfig } from '../../config/iam-config';

/** Why a Client ID Metadata Document was not accepted; logged, never shown to the browser. */
export class ClientMetadataRefused extends Error {}

/** What a valid document makes of the client, and until when that holds. */
export interface ClientFromDocument {
  name: string;
  redirectUris: string[];
  grantTypes: string[];
  scopes: string[];
  expiresAt: Date;
}

/** RFC 7591 fields that only make sense with a shared secret: a document naming one is refused. */
const SECRET_FIELDS = ['client_secret', 'client_secret_expires_at'];
const MAX_REDIRECT_URIS = 20;
const MAX_NAME = 200;

/** Cache-Control of the document's answer within [0, max]: no-store/no-cache → 0, max-age → it, none → max. */
export function cacheSeconds(cacheControl: string | undefined, max: number): number {
  const directives = (cacheControl ?? '').toLowerCase().split(',').map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0;
  const maxAge = directives.map((d) => /^max-age=(\d+)$/.exec(d)).find(Boolean);
  return maxAge ? Math.min(Number(maxAge[1]), max) : max;
}

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): fetches the
 * document a URL client_id points to, through the SSRF guard, with a byte cap, a time limit and
 * no redirects, and checks it. The result is cached by the clients repository (a row per client
 * until `expiresAt`), so replicas share it.
 */
@Injectable()
export class ClientMetadataDocuments {
  private readonly maxBytes: number;
  private readonly timeoutMs: number;
  private readonly cacheMaxSec: number;
  /** Concurrent lookups of one URL share one fetch. */
  private readonly inFlight = new Map<string, Promise<ClientFromDocument>>();

  constructor(
    readonly policy: UnregisteredClientPolicy,
    config: IamConfig,
    private readonly clock: Clock,
  ) {
    this.maxBytes = config.get('IAM_CIMD_MAX_BYTES');
    this.timeoutMs = config.get('IAM_CIMD_TIMEOUT_MS');
    this.cacheMaxSec = config.get('IAM_CIMD_CACHE_SEC');
  }

  /** Fetches and checks the document behind `clientId`; throws ClientMetadataRefused saying why not. */
  fetch(clientId: string): Promise<ClientFromDocument> {
    const pending = this.inFlight.get(clientId);
    if (pending) return pending;
    const p = this.load(clientId).finally(() => this.inFlight.delete(clientId));
    this.inFlight.set(clientId, p);
    return p;
  }

  private async load(clientId: string): Promise<ClientFromDocument> {
    const refusal = this.policy.documentUrlRefusal(clientId);
    if (refusal) throw new ClientMetadataRefused(refusal);
    let answer;
    try {
      answer = await guardedFetch(clientId, this.policy.addressPolicy, {
        maxBytes: this.maxBytes,
        timeoutMs: this.timeoutMs,
        // The document must be at the URL itself: a redirect could hand the identity to another host.
        maxRedirects: 0,
        headers: { accept: 'application/json', 'user-agent': 'iam-client-metadata' },
      });
    } catch (e) {
      throw new ClientMetadataRefused(`the metadata document could not be fetched: ${(e as Error).message}`);
    }
    const mediaType = answer.contentType.split(';')[0].trim().toLowerCase();
    if (mediaType !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(mediaType)) {
      throw new ClientMetadataRefused(`the metadata document is ${mediaType || 'untyped'}, not JSON`);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(answer.body.toString('utf8'));
    } catch {
      throw new ClientMetadataRefused('the metadata document is not valid JSON');
    }
    const client = this.check(clientId, doc);
    const seconds = cacheSeconds(answer.headers['cache-control'], this.cacheMaxSec);
    return { ...client, expiresAt: new Date(this.clock.now().getTime() + seconds * 1000) };
  }

  /** The document's rules: it names this very URL, redirect URIs we accept, and no shared secret. */
  private check(clientId: string, doc: unknown): Omit<ClientFromDocument, 'expiresAt'> {
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new ClientMetadataRefused('the metadata document is not a JSON object');
    const d = doc as Record<string, unknown>;
    if (d['client_id'] !== clientId) throw new ClientMetadataRefused('the metadata document names a different client_id');
    for (const field of SECRET_FIELDS) if (field in d) throw new ClientMetadataRefused(`the metadata document must not contain ${field}`);
    const method = d['token_endpoint_auth_method'] ?? 'none';
    if (method !== 'none') throw new ClientMetadataRefused('token_endpoint_auth_method must be none (such clients are public)');
    const uris = d['redirect_uris'];
    if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
      throw new ClientMetadataRefused(`redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`);
    }
    for (const uri of uris) {
      const why = this.policy.redirectUriRefusal(uri);
      if (why) throw new ClientMetadataRefused(`redirect_uris: ${why}`);
    }
    const grants = d['grant_types'] ?? ['authorization_code'];
    if (!Array.isArray(grants) || !grants.includes('authorization_code') || grants.some((g) => !(UNREGISTERED_GRANT_TYPES as readonly unknown[]).includes(g))) {
      throw new ClientMetadataRefused(`grant_types must include authorization_code and may add refresh_token only`);
    }
    const responseTypes = d['response_types'] ?? ['code'];
    if (!Array.isArray(responseTypes) || responseTypes.some((t) => t !== 'code')) throw new ClientMetadataRefused('response_types may only be code');
    const name = d['client_name'];
    if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME)) {
      throw new ClientMetadataRefused(`client_name must be a string of 1 to ${MAX_NAME} characters`);
    }
    const scope = d['scope'];
    if (scope !== undefined && typeof scope !== 'string') throw new ClientMetadataRefused('scope must be a space-separated string');
    return {
      name: typeof name === 'string' ? name.trim() : new URL(clientId).host,
      redirectUris: [...new Set(uris as string[])],
      grantTypes: [...new Set(grants as string[])],
      scopes: this.policy.grantable(scope as string | undefined),
    };
  }
}
