import { loadEnv } from '@platform/config';
import { describeServiceBasics } from '@platform/testing';
import { GuardrailsAdminEnv } from '../src/config/env';
import { dataSourceOptions } from '../src/data-source';

describeServiceBasics({
  service: 'guardrails-admin',
  loadAppModule: async () => (await import('../src/app.module')).AppModule,
  dataSourceOptions: (env) => dataSourceOptions(loadEnv(GuardrailsAdminEnv, env)),
});
