import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { loadEnv } from '@platform/config';
import type { GuardrailsSettings, GuardrailsTables } from '@platform/guardrails';
import type { DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from '../data-source';
import { GuardrailsAdminEnv } from './env';
import { configuredDefaults, configuredTables } from './json-settings';

/** Whether and where the admin API routes exist, and the guards every one of them passes. */
export interface GuardrailsApiSettings {
  enabled: boolean;
  prefix: string;
  middleware: string;
}

/**
 * guardrails-admin's settings, typed. GuardrailsAdminEnv declares, defaults and validates each
 * variable once; inside Nest the values come from the validated instance PlatformModule's
 * ConfigService holds, and code that runs before or outside Nest (the module graph, the edge error
 * filter, CLI tasks) gets the same accessor from `load()`, so no call site reads the environment
 * or repeats a default.
 */
export class GuardrailsAdminConfig {
  private constructor(private readonly read: (key: string) => unknown) {}

  /** The process environment (or `raw`), validated as at boot: a bad value throws naming the variable. */
  static load(raw?: Record<string, string | undefined>): GuardrailsAdminConfig {
    const env = loadEnv(GuardrailsAdminEnv, raw);
    return new GuardrailsAdminConfig((key) => env[key as keyof GuardrailsAdminEnv]);
  }

  /** The accessor over the env a running app validated at boot. */
  static of(config: ConfigService): GuardrailsAdminConfig {
    return new GuardrailsAdminConfig((key) => config.get(key));
  }

  /** One setting as GuardrailsAdminEnv types it (undefined only where it has no default). */
  get<K extends keyof GuardrailsAdminEnv>(key: K): GuardrailsAdminEnv[K] {
    return this.read(key as string) as GuardrailsAdminEnv[K];
  }

  get api(): GuardrailsApiSettings {
    return { enabled: this.get('GUARDRAILS_API_ENABLED'), prefix: this.get('GUARDRAILS_API_PREFIX'), middleware: this.get('GUARDRAILS_API_MIDDLEWARE') };
  }

  /** The file defaults stored overrides are laid over; a bad GUARDRAILS_SETTINGS_DEFAULTS throws naming the key. */
  settingsDefaults(): GuardrailsSettings {
    return configuredDefaults(this.get('GUARDRAILS_SETTINGS_DEFAULTS'));
  }

  /** Table names per store group (GUARDRAILS_TABLES); groups not named keep the library's tables. */
  tables(): Partial<GuardrailsTables> {
    return configuredTables(this.get('GUARDRAILS_TABLES'));
  }

  /** Where this app's own database is (DATABASE_URL, DATABASE_NAME). */
  dataSourceOptions(): DataSourceOptions {
    return dataSourceOptions({ DATABASE_URL: this.get('DATABASE_URL'), DATABASE_NAME: this.get('DATABASE_NAME'), DATABASE_PREPARE_AFTER: this.get('DATABASE_PREPARE_AFTER') });
  }
}

/** Gives every module of the guardrails-admin app the typed config. */
@Global()
@Module({
  providers: [{ provide: GuardrailsAdminConfig, inject: [ConfigService], useFactory: GuardrailsAdminConfig.of }],
  exports: [GuardrailsAdminConfig],
})
export class GuardrailsAdminConfigModule {}
