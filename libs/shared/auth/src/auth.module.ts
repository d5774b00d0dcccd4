import { DynamicModule, Global, InjectionToken, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ConfigService } from '@nestjs/config';
import { REDIS_CLIENT } from '@platform/contracts';
import { AccessTokenAuthenticator } from './access-token-authenticator';
import type { DpopReplayStore } from './dpop';
import { DpopNonces } from './dpop-nonce';
import { JwtAuthGuard } from './jwt-auth.guard';
import { JwtVerifier } from './jwt-verifier';
import { resourceMetadataUrl } from './protected-resource';
import { JwtStrategy } from './strategies/jwt.strategy';
import { ACCESS_TOKEN_AUTHENTICATOR, AUTH_CLOCK, AUTH_RESOURCE, AuthResource, JWT_VERIFIER } from './tokens';

/** What the module needs of the app's injectable clock (`Clock` of @platform/runtime has it). */
export interface MillisecondClock {
  nowMs(): number;
}

export interface AuthModuleOptions {
  /** Apply the guard to every route (opt out with @Public()). */
  global?: boolean;
  /**
   * The app's clock provider (pass `Clock` from @platform/runtime), so DPoP proof windows and
   * nonces follow the time tests move. Without one, the wall clock.
   */
  clock?: InjectionToken<MillisecondClock>;
}

const wallClock: MillisecondClock = { nowMs: () => Date.now() };

export const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function authResourceFromConfig(config: ConfigService): AuthResource {
  const resource = config.get<string>('OAUTH_RESOURCE') || undefined;
  // A service always accepts tokens naming its own resource; JWT_AUDIENCE adds the shared audience
  // iam uses when a client asks for no resource (`platform`), so existing clients keep working.
  const audiences = [...new Set([...list(config.get<string>('JWT_AUDIENCE')), ...(resource ? [resource] : [])])];
  return { resource, metadataUrl: resource ? resourceMetadataUrl(resource) : undefined, issuer: config.getOrThrow<string>('IAM_ISSUER'), audiences };
}

/**
 * DPOP_NONCE_REQUIRED (validated config, so a boolean): proofs must carry a nonce made with
 * DPOP_NONCE_SECRET, which every replica shares. Off, proofs need no nonce.
 */
export function dpopNoncesFromConfig(config: ConfigService, resource: AuthResource): DpopNonces | undefined {
  if (config.get<boolean>('DPOP_NONCE_REQUIRED') !== true) return undefined;
  return new DpopNonces({ secret: config.getOrThrow<string>('DPOP_NONCE_SECRET'), audience: resource.resource ?? resource.issuer });
}

/**
 * Reads IAM_JWKS_URL, IAM_ISSUER, JWT_AUDIENCE, OAUTH_RESOURCE and the DPoP nonce settings from the app's validated config
 * and provides the verifier, the request authenticator (Bearer and DPoP), the `jwt` passport
 * strategy over it and the guard. No call to
 * iam happens on the request path beyond the cached JWKS; DPoP proof ids are remembered in Redis.
 */
@Global()
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions = {}): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        { provide: AUTH_RESOURCE, inject: [ConfigService], useFactory: authResourceFromConfig },
        {
          provide: AUTH_CLOCK,
          inject: options.clock ? [options.clock] : [],
          useFactory: (clock: MillisecondClock = wallClock) => () => clock.nowMs(),
        },
        {
          provide: JWT_VERIFIER,
          inject: [ConfigService, AUTH_RESOURCE],
          useFactory: (config: ConfigService, resource: AuthResource) =>
            new JwtVerifier({ jwksUrl: config.getOrThrow<string>('IAM_JWKS_URL'), issuer: resource.issuer, audience: resource.audiences }),
        },
        {
          provide: ACCESS_TOKEN_AUTHENTICATOR,
          inject: [JWT_VERIFIER, AUTH_RESOURCE, AUTH_CLOCK, ConfigService, { token: REDIS_CLIENT, optional: true }],
          useFactory: (verifier: JwtVerifier, resource: AuthResource, now: () => number, config: ConfigService, redis?: DpopReplayStore) =>
            new AccessTokenAuthenticator(verifier, {
              // Clients address the service through the gateway, whose origin the resource (else iam's issuer) names.
              publicOrigin: resource.resource ?? resource.issuer,
              replay: redis,
              now,
              dpopNonces: dpopNoncesFromConfig(config, resource),
            }),
        },
        JwtStrategy,
        JwtAuthGuard,
        ...(options.global ? [{ provide: APP_GUARD, useExisting: JwtAuthGuard }] : []),
      ],
      exports: [JWT_VERIFIER, ACCESS_TOKEN_AUTHENTICATOR, AUTH_RESOURCE, AUTH_CLOCK, JwtStrategy, JwtAuthGuard],
    };
  }
}
