import { describeOpenApiContract } from '@platform/testing';
import { OPENAPI_ENV } from '../src/openapi-spec';
import { startIam } from './iam-test-env';

/** The document generated from iam's module graph, as the running service serves it. */
describeOpenApiContract(
  'iam OpenAPI document',
  { service: 'iam', servedAt: '/api/iam/openapi.json', start: () => startIam(OPENAPI_ENV) },
  (served) => {
    it('lists the token endpoint; the document itself asks for no authentication', () => {
      expect(Object.keys(served().paths)).toContain('/oauth/token');
      expect(served().paths['/api/iam/openapi.json']?.['get']?.security).toEqual([]);
    });
  },
);
