import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { loadEnv } from '@platform/config';
import type { DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from '../data-source';
import { EvidenceReviewEnv } from './env';

/** What the review engine is built from: its JSON config and the optional LLM step. */
export type EngineSettings = Pick<EvidenceReviewEnv, 'EVIDENCE_ENGINE_CONFIG' | 'EVIDENCE_LLM_ENABLED' | 'EVIDENCE_LLM_BASE_URL' | 'EVIDENCE_LLM_MODEL' | 'EVIDENCE_LLM_API_KEY'>;

/**
 * evidence-review's settings, typed. EvidenceReviewEnv declares, defaults and validates each
 * variable once; inside Nest the values come from the validated instance PlatformModule's
 * ConfigService holds, and code that runs before or outside Nest (the module graph, CLI tasks)
 * gets the same accessor from `load()`, so no call site reads the environment or repeats a default.
 */
export class EvidenceReviewConfig {
  private constructor(private readonly read: (key: string) => unknown) {}

  /** The process environment (or `raw`), validated as at boot: a bad value throws naming the variable. */
  static load(raw?: Record<string, string | undefined>): EvidenceReviewConfig {
    const env = loadEnv(EvidenceReviewEnv, raw);
    return new EvidenceReviewConfig((key) => env[key as keyof EvidenceReviewEnv]);
  }

  /** The accessor over the env a running app validated at boot. */
  static of(config: ConfigService): EvidenceReviewConfig {
    return new EvidenceReviewConfig((key) => config.get(key));
  }

  /** One setting as EvidenceReviewEnv types it (undefined only where it has no default). */
  get<K extends keyof EvidenceReviewEnv>(key: K): EvidenceReviewEnv[K] {
    return this.read(key as string) as EvidenceReviewEnv[K];
  }

  /** `api.enabled`: whether the HTTP and MCP review routes exist. */
  get apiEnabled(): boolean {
    return this.get('EVIDENCE_API_ENABLED');
  }

  get engine(): EngineSettings {
    return {
      EVIDENCE_ENGINE_CONFIG: this.get('EVIDENCE_ENGINE_CONFIG'),
      EVIDENCE_LLM_ENABLED: this.get('EVIDENCE_LLM_ENABLED'),
      EVIDENCE_LLM_BASE_URL: this.get('EVIDENCE_LLM_BASE_URL'),
      EVIDENCE_LLM_MODEL: this.get('EVIDENCE_LLM_MODEL'),
      EVIDENCE_LLM_API_KEY: this.get('EVIDENCE_LLM_API_KEY'),
    };
  }

  /** Where this app's own database is (DATABASE_URL, DATABASE_NAME). */
  dataSourceOptions(): DataSourceOptions {
    return dataSourceOptions({ DATABASE_URL: this.get('DATABASE_URL'), DATABASE_NAME: this.get('DATABASE_NAME'), DATABASE_PREPARE_AFTER: this.get('DATABASE_PREPARE_AFTER') });
  }
}

/** Gives every module of the evidence-review app the typed config. */
@Global()
@Module({
  providers: [{ provide: EvidenceReviewConfig, inject: [ConfigService], useFactory: EvidenceReviewConfig.of }],
  exports: [EvidenceReviewConfig],
})
export class EvidenceReviewConfigModule {}
