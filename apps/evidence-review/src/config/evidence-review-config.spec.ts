import { ConfigService } from '@nestjs/config';
import { EvidenceReviewConfig } from './evidence-review-config';

describe('EvidenceReviewConfig', () => {
  it('gives every setting typed and defaulted once, by the env class', () => {
    const config = EvidenceReviewConfig.load({});
    expect(config.apiEnabled).toBe(false);
    expect(config.engine).toEqual({
      EVIDENCE_ENGINE_CONFIG: undefined,
      EVIDENCE_LLM_ENABLED: false,
      EVIDENCE_LLM_BASE_URL: undefined,
      EVIDENCE_LLM_MODEL: undefined,
      EVIDENCE_LLM_API_KEY: undefined,
    });
  });

  it('converts what the environment gives as text', () => {
    const config = EvidenceReviewConfig.load({ EVIDENCE_API_ENABLED: 'true', EVIDENCE_LLM_ENABLED: 'false', EVIDENCE_LLM_MODEL: 'm' });
    expect(config.apiEnabled).toBe(true);
    expect(config.engine).toMatchObject({ EVIDENCE_LLM_ENABLED: false, EVIDENCE_LLM_MODEL: 'm' });
  });

  it('refuses a bad value naming the variable', () => {
    expect(() => EvidenceReviewConfig.load({ EVIDENCE_MAX_BODY_BYTES: '10' })).toThrow(/EVIDENCE_MAX_BODY_BYTES/);
  });

  it('treats a blank DATABASE_NAME as unset, so the app keeps its own database', () => {
    const options = EvidenceReviewConfig.load({ DATABASE_NAME: '', DATABASE_URL: 'postgres://db:5432/postgres' }).dataSourceOptions() as { url?: string };
    expect(new URL(options.url!).pathname).toBe('/evidence');
  });

  it('reads the same values from the ConfigService a running app validated', () => {
    const config = EvidenceReviewConfig.of(new ConfigService({ EVIDENCE_API_ENABLED: true, EVIDENCE_LLM_ENABLED: true, EVIDENCE_LLM_BASE_URL: 'http://llm' }));
    expect(config.apiEnabled).toBe(true);
    expect(config.engine).toMatchObject({ EVIDENCE_LLM_ENABLED: true, EVIDENCE_LLM_BASE_URL: 'http://llm' });
  });
});
