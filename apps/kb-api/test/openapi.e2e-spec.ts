import { describeOpenApiContract } from '@platform/testing';
import { OPENAPI_ENV } from '../src/openapi-spec';
import { startKb } from './kb-test-env';

/** The document generated from kb-api's module graph, as the running service serves it. */
describeOpenApiContract(
  'kb-api OpenAPI document',
  { service: 'kb-api', servedAt: '/api/kb/openapi.json', start: () => startKb(OPENAPI_ENV) },
  (served) => {
    it('lists the chat endpoint', () => {
      expect(Object.keys(served().paths)).toContain('/api/kb/chat');
    });
  },
);
