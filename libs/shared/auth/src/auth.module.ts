import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ConfigService } from '@nestjs/config';
import { JWT_VERIFIER, JwtAuthGuard } from './jwt-auth.guard';
import { JwtVerifier } from './jwt-verifier';

export interface AuthModuleOptions {
  /** Apply the guard to every route (opt out with @Public()). */
  global?: boolean;
}

/**
 * Reads IAM_JWKS_URL, IAM_ISSUER and JWT_AUDIENCE from the app's validated config and provides
 * the verifier and guard. No call to iam happens on the request path beyond the cached JWKS.
 */
@Global()
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions = {}): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        {
          provide: JWT_VERIFIER,
          inject: [ConfigService],
          useFactory: (config: ConfigService) =>
            new JwtVerifier({
              jwksUrl: config.getOrThrow<string>('IAM_JWKS_URL'),
              issuer: config.getOrThrow<string>('IAM_ISSUER'),
              audience: config.getOrThrow<string>('JWT_AUDIENCE').split(',').map((s) => s.trim()),
            }),
        },
        JwtAuthGuard,
        ...(options.global ? [{ provide: APP_GUARD, useExisting: JwtAuthGuard }] : []),
      ],
      exports: [JWT_VERIFIER, JwtAuthGuard],
    };
  }
}
