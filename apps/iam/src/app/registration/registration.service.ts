import { Injectable } from '@nestjs/common';
import { randomString } from '@platform/crypto';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ClientsRepository } from '../clients/clients.repository';
import { Clock } from '@platform/runtime';
import { OAuthError } from '../oauth/oauth-error';
import { ClientRegistrationRequest } from './dto/client-registration.request';
import { ClientRegistrationResponse } from './dto/client-registration.response';
import { UnregisteredClientPolicy } from './unregistered-client-policy';

const invalidMetadata = (d: string) => new OAuthError('invalid_client_metadata', d);
const invalidRedirect = (d: string) => new OAuthError('invalid_redirect_uri', d);

/** RFC 7591 dynamic registration of public clients, for MCP clients that cannot use a metadata document. */
@Injectable()
export class RegistrationService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly policy: UnregisteredClientPolicy,
    private readonly clock: Clock,
  ) {}

  /** 401 invalid_token unless the bearer token is one of the configured initial access tokens (RFC 7591 §3). */
  authorize(authorization: string | undefined): void {
    const token = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(authorization?.trim() ?? '')?.[1];
    // RFC 6750 §3.1: a request with no credentials gets the challenge without an error code.
    if (!token) throw new OAuthError('invalid_token', 'an initial access token is required', 401, { 'WWW-Authenticate': 'Bearer' });
    if (!this.policy.initialAccessTokenValid(token)) {
      throw new OAuthError('invalid_token', 'the initial access token is not valid', 401, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    }
  }

  async register(body: unknown): Promise<ClientRegistrationResponse> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidMetadata('the body must be a JSON object of client metadata');
    const raw = body as Record<string, unknown>;
    // §2: a client asking for a secret-based method is refused rather than quietly made public.
    for (const field of ['client_secret', 'jwks', 'jwks_uri']) if (field in raw) throw invalidMetadata(`${field} is not accepted: clients registered here are public`);
    const request = plainToInstance(ClientRegistrationRequest, raw);
    const errors = await validate(request, { whitelist: true, forbidUnknownValues: false });
    if (errors.length) {
      const first = errors[0];
      const message = Object.values(first.constraints ?? {})[0] ?? `${first.property} is not valid`;
      throw first.property === 'redirect_uris' ? invalidRedirect(message) : invalidMetadata(message);
    }
    for (const uri of request.redirect_uris) {
      const why = this.policy.redirectUriRefusal(uri);
      if (why) throw invalidRedirect(why);
    }
    const grantTypes = [...new Set(request.grant_types ?? ['authorization_code'])];
    if (!grantTypes.includes('authorization_code')) throw invalidMetadata('grant_types must include authorization_code');
    const scopes = this.policy.grantable(request.scope);
    const clientId = `dyn_${randomString(24)}`;
    const name = request.client_name?.trim() || 'Unnamed client';
    const saved = await this.clients.upsert({
      clientId,
      name,
      isConfidential: false,
      tokenEndpointAuthMethod: 'none',
      redirectUris: [...new Set(request.redirect_uris)],
      grantTypes,
      scopes,
      firstParty: false,
      registrationType: 'dynamic',
    });
    return {
      client_id: clientId,
      client_id_issued_at: Math.floor((saved.createdAt?.getTime() ?? this.clock.now().getTime()) / 1000),
      client_name: name,
      redirect_uris: saved.redirectUris,
      grant_types: grantTypes,
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: scopes.join(' '),
    };
  }
}
