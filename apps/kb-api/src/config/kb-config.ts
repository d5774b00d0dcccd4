import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { loadEnv } from '@platform/config';
import type { DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from '../data-source';
import { KbApiEnv } from './env';

/** The settings KbApiEnv declares as numbers. */
type NumericSetting = { [K in keyof KbApiEnv]-?: KbApiEnv[K] extends number ? K : never }[keyof KbApiEnv];

/**
 * kb-api's settings, typed. KbApiEnv declares, defaults and validates each variable once; inside
 * Nest the values come from the validated instance PlatformModule's ConfigService holds, and code
 * that runs outside Nest (CLI tasks) gets the same accessor from `load()`, so no call site reads
 * the environment or repeats a default.
 */
export class KbConfig {
  private constructor(private readonly read: (key: string) => unknown) {}

  /** The process environment (or `raw`), validated as at boot: a bad value throws naming the variable. */
  static load(raw?: NodeJS.ProcessEnv): KbConfig {
    const env = loadEnv(KbApiEnv, raw);
    return new KbConfig((key) => env[key as keyof KbApiEnv]);
  }

  /** The accessor over the env a running app validated at boot. */
  static of(config: ConfigService): KbConfig {
    return new KbConfig((key) => config.get(key));
  }

  /**
   * A number needed while a module file loads (decorator options), before boot validates the env,
   * when importing a module must not need a complete env: a missing, blank or non-numeric value
   * gives KbApiEnv's default (boot then refuses a bad value anyway).
   */
  static numberBeforeBoot(key: NumericSetting, raw: NodeJS.ProcessEnv = process.env): number {
    return Number(raw[key]) || (new KbApiEnv()[key] as number);
  }

  /** One setting as KbApiEnv types it (undefined only where KbApiEnv has no default). */
  get<K extends keyof KbApiEnv>(key: K): KbApiEnv[K] {
    return this.read(key as string) as KbApiEnv[K];
  }

  /** Several settings at once, for a component built from a plain settings object (storage drivers). */
  pick<K extends keyof KbApiEnv>(keys: readonly K[]): Pick<KbApiEnv, K> {
    return Object.fromEntries(keys.map((key) => [key, this.get(key)])) as Pick<KbApiEnv, K>;
  }

  /** The knowledge-base app's public URL without a trailing slash, the base of links in mails. */
  get appUrl(): string {
    return this.get('KB_APP_URL').replace(/\/+$/, '');
  }

  /** The connection to kb-api's own database (CLI tasks open it outside Nest). */
  dataSourceOptions(): DataSourceOptions {
    return dataSourceOptions(this.pick(['DATABASE_URL', 'DATABASE_NAME', 'DATABASE_PREPARE_AFTER']));
  }
}

/** Gives every module of a kb-api process (API, worker, CLI) the typed config. */
@Global()
@Module({ providers: [{ provide: KbConfig, inject: [ConfigService], useFactory: KbConfig.of }], exports: [KbConfig] })
export class KbConfigModule {}
