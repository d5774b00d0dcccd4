import { describeOpenApiContract } from '@platform/testing';
import { OPENAPI_ENV } from '../src/openapi-spec';
import { startGuardrailsAdminWithIssuer } from './guardrails-test-env';

describeOpenApiContract(
  'guardrails-admin OpenAPI document (generated from the controllers and DTOs)',
  {
    service: 'guardrails-admin',
    servedAt: '/guardrails/api/openapi.json',
    start: () => startGuardrailsAdminWithIssuer(OPENAPI_ENV),
  },
  (served) => {
    it('lists the routes under the default api.prefix', () => {
      expect(
        Object.keys(served().paths).filter((path) => !path.startsWith('/guardrails/api/')),
      ).toEqual([]);
    });
  },
);
