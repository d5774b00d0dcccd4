import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import { SecretHasher } from '@platform/crypto';
import type Redis from 'ioredis';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { ClientsRepository } from '../clients/clients.repository';
import { OAuthClient } from '../clients/oauth-client.entity';
import { Clock } from '@platform/runtime';
import { OAuthError } from './oauth-error';
import { IamConfig } from '../../config/iam-config';

export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export interface TokenRequestCredentials {
  authorization?: string;
  body: Record<string, string | undefined>;
  /** Absolute URL of the token endpoint as the client addressed it. */
  tokenEndpoint: string;
}

export interface AuthenticatedClient {
  client: OAuthClient;
  method: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic encoding. */
function parseBasic(header: string): { id: string; secret: string } | undefined {
  const m = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const sep = decoded.indexOf(':');
  if (sep < 0) return undefined;
  const unescape = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  try {
    return { id: unescape(decoded.slice(0, sep)), secret: unescape(decoded.slice(sep + 1)) };
  } catch {
    return undefined;
  }
}

/**
 * Establishes which client is calling the token endpoint, by exactly one method: HTTP Basic,
 * secret in the body, a private_key_jwt assertion, or (public clients) client_id alone. Every
 * failure is 401 invalid_client with no hint of which part was wrong.
 */
@Injectable()
export class ClientAuthenticator {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
    private readonly config: IamConfig,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
  ) {}

  async authenticate(req: TokenRequestCredentials): Promise<AuthenticatedClient> {
    const { body } = req;
    const basic = req.authorization ? parseBasic(req.authorization) : undefined;
    if (req.authorization && !basic && /^Basic/i.test(req.authorization)) {
      throw OAuthError.invalidClient('malformed Basic authorization', true);
    }
    const hasAssertion = body['client_assertion'] !== undefined || body['client_assertion_type'] !== undefined;
    const methods = [basic, body['client_secret'] !== undefined, hasAssertion].filter(Boolean).length;
    if (methods > 1) throw OAuthError.invalidRequest('use exactly one client authentication method');

    if (hasAssertion) return this.byAssertion(req);
    if (basic) {
      if (body['client_id'] !== undefined && body['client_id'] !== basic.id) {
        throw OAuthError.invalidRequest('client_id differs from the authenticated client');
      }
      return { client: await this.bySecret(basic.id, basic.secret, true), method: 'client_secret_basic' };
    }
    const clientId = body['client_id'];
    if (!clientId) throw OAuthError.invalidClient('client authentication is required');
    if (body['client_secret'] !== undefined) {
      return { client: await this.bySecret(clientId, body['client_secret'] ?? '', false), method: 'client_secret_post' };
    }
    const client = await this.clients.findForAuthentication(clientId);
    if (!client || client.revokedAt || client.isConfidential) {
      throw OAuthError.invalidClient('client authentication failed');
    }
    return { client, method: 'none' };
  }

  private async bySecret(clientId: string, secret: string, viaBasic: boolean): Promise<OAuthClient> {
    const client = await this.clients.findForAuthentication(clientId);
    const fail = () => OAuthError.invalidClient('client authentication failed', viaBasic);
    if (!client || client.revokedAt || !client.isConfidential || !secret) throw fail();
    if (client.tokenEndpointAuthMethod === 'private_key_jwt' || !client.secretHash) throw fail();
    if (this.hasher.verify(secret, client.secretHash)) return client;
    const graceActive = client.previousSecretGraceUntil !== null && client.previousSecretGraceUntil > this.clock.now();
    if (graceActive && client.previousSecretHash && this.hasher.verify(secret, client.previousSecretHash)) return client;
    throw fail();
  }

  /** RFC 7523 client assertion, ES256 only, single-use jti remembered in Redis for every replica. */
  private async byAssertion(req: TokenRequestCredentials): Promise<AuthenticatedClient> {
    const { body } = req;
    const fail = (why: string) => OAuthError.invalidClient(`client assertion rejected: ${why}`);
    if (body['client_assertion_type'] !== JWT_BEARER_ASSERTION) throw fail('unsupported client_assertion_type');
    const assertion = body['client_assertion'];
    if (!assertion) throw fail('missing client_assertion');

    // The claims are read unverified only to learn which client's keys verify them; a payload that
    // is not a JSON object (not JSON at all, `null`, an array) is a malformed assertion like any other.
    let header;
    let unverified;
    try {
      header = decodeProtectedHeader(assertion);
      unverified = decodeJwt(assertion);
    } catch {
      throw fail('malformed');
    }
    if (header.alg !== 'ES256') throw fail('alg must be ES256');
    const clientId = typeof unverified.iss === 'string' ? unverified.iss : undefined;
    if (!clientId || (body['client_id'] !== undefined && body['client_id'] !== clientId)) throw fail('iss must be the client_id');
    const client = await this.clients.findForAuthentication(clientId);
    if (!client || client.revokedAt || client.tokenEndpointAuthMethod !== 'private_key_jwt' || !client.jwks) {
      throw fail('unknown client');
    }
    const issuer = this.config.issuer;
    const maxLifetime = this.config.get('OAUTH_CLIENT_ASSERTION_MAX_LIFETIME_SEC');
    let payload;
    try {
      ({ payload } = await jwtVerify(assertion, createLocalJWKSet(client.jwks), {
        algorithms: ['ES256'],
        issuer: clientId,
        subject: clientId,
        audience: [req.tokenEndpoint, `${issuer}/oauth/token`, issuer],
        currentDate: this.clock.now(),
        clockTolerance: 5,
        requiredClaims: ['exp', 'iat', 'jti'],
      }));
    } catch (e) {
      throw fail((e as Error).message);
    }
    const now = this.clock.nowSec();
    if (payload.exp! - payload.iat! > maxLifetime || payload.exp! - now > maxLifetime) {
      throw fail(`lifetime over ${maxLifetime} s`);
    }
    const replayKey = `iam:assertion-jti:${createHash('sha256').update(`${clientId}|${payload.jti}`).digest('hex')}`;
    const ttlMs = Math.max(1000, (payload.exp! - now + 5) * 1000);
    const first = await this.redis.set(replayKey, '1', 'PX', ttlMs, 'NX');
    if (first !== 'OK') throw fail('jti already used');
    return { client, method: 'private_key_jwt' };
  }
}
