import type { Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AccessTokenAuthenticator, AUTH_CLOCK, AUTH_RESOURCE, AuthResource, DpopReplayStore, dpopNoncesFromConfig, JwtVerifier } from '@platform/auth';
import { REDIS_CLIENT } from '@platform/contracts';
import { IamConfig } from '../../config/iam-config';
import { ResourceIndicators } from './resource-indicators';

/** The authenticator of /oauth/userinfo (Bearer and DPoP, as every resource service checks them). */
export const USERINFO_AUTHENTICATOR = Symbol.for('iam.USERINFO_AUTHENTICATOR');

/**
 * The platform's access-token authenticator, with the same key set, origin, clock, replay memory
 * and DPoP nonces as the shared one (AuthModule), but taking every audience iam puts in its
 * tokens: the default one and each RFC 8707 resource. UserInfo (OIDC Core §5.3) serves any
 * access token of an OpenID Connect request, and MCP clients always ask for a `resource`.
 */
export const userinfoAuthenticatorProvider: Provider = {
  provide: USERINFO_AUTHENTICATOR,
  inject: [ConfigService, IamConfig, ResourceIndicators, AUTH_RESOURCE, AUTH_CLOCK, { token: REDIS_CLIENT, optional: true }],
  useFactory: (config: ConfigService, iam: IamConfig, indicators: ResourceIndicators, resource: AuthResource, now: () => number, redis?: DpopReplayStore) =>
    new AccessTokenAuthenticator(
      new JwtVerifier({
        jwksUrl: config.getOrThrow<string>('IAM_JWKS_URL'),
        issuer: resource.issuer,
        audience: [...new Set([iam.get('IAM_ACCESS_TOKEN_AUDIENCE'), ...resource.audiences, ...indicators.known])],
      }),
      { publicOrigin: resource.resource ?? resource.issuer, replay: redis, now, dpopNonces: dpopNoncesFromConfig(config, resource) },
    ),
};
