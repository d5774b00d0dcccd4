import { Global, Injectable, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { plainToInstance } from 'class-transformer';
import { IamEnv } from './env';

/**
 * iam's settings, typed. IamEnv declares, defaults and validates each variable once; the
 * ConfigService PlatformModule builds holds that validated instance, so a value read here is
 * already converted and defaulted and no call site repeats a default.
 */
@Injectable()
export class IamConfig {
  constructor(private readonly config: ConfigService) {}

  /**
   * The config a raw env gives, converted and defaulted as at boot but not validated, so unit
   * tests can also show what a component does with a value boot would refuse.
   */
  static fromEnv(raw: Record<string, unknown>): IamConfig {
    return new IamConfig(new ConfigService({ ...plainToInstance(IamEnv, raw, { enableImplicitConversion: true }) }));
  }

  /** One setting as IamEnv types it (undefined only where IamEnv has no default). */
  get<K extends keyof IamEnv>(key: K): IamEnv[K] {
    return this.config.get(key as string) as IamEnv[K];
  }

  /** A setting the caller only reads once the feature that needs it is known to be on. */
  required<K extends keyof IamEnv>(key: K): NonNullable<IamEnv[K]> {
    const value = this.get(key);
    if (value === undefined || value === null) throw new Error(`${String(key)} is not set`);
    return value as NonNullable<IamEnv[K]>;
  }

  get production(): boolean {
    return this.get('NODE_ENV') === 'production';
  }

  /** Cookies iam sets are `Secure` in production only (development runs over plain http). */
  get secureCookies(): boolean {
    return this.production;
  }

  /** The `iss` of every token and the base of every endpoint URL, without a trailing slash. */
  get issuer(): string {
    return this.get('IAM_ISSUER').replace(/\/+$/, '');
  }
}

/** Gives every module of an iam process (API, worker, CLI) the typed config. */
@Global()
@Module({ providers: [IamConfig], exports: [IamConfig] })
export class IamConfigModule {}
