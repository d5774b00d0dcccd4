import { describeOpenApiContract } from '@platform/testing';
import { OPENAPI_ENV } from '../src/openapi-spec';
import { startEvidenceWithIssuer } from './evidence-test-env';

describeOpenApiContract(
  'evidence-review OpenAPI document (generated from the controllers and DTOs)',
  {
    service: 'evidence-review',
    servedAt: '/evidence-risk-review/openapi.json',
    start: () => startEvidenceWithIssuer(OPENAPI_ENV),
  },
);
