import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiGuarded, ApiTenantHeader, ApiValidationFailed } from '../api-docs';

/** What every admin operations route shares in the document: its tag, its gate's answers, the tenant header. */
export const ApiOperationsAdmin = () => applyDecorators(ApiTags('Admin operations'), ApiGuarded(), ApiTenantHeader());

/** The gates of the operations routes, as their descriptions open. */
export const GATES = {
  g1: 'Gate G1 (`role:admin|super-admin` in the active tenant).',
  connectors: 'Gate `can:manageConnectors` (admin, super-admin).',
  reviewsView: 'Gate `can:viewTabularReviews` (viewer, admin, super-admin).',
  reviewsAct: 'Gate `can:viewTabularReviews` and G1 (admin, super-admin): viewers only read.',
  workflows: 'Gate `can:viewWorkflows` (viewer, admin, super-admin).',
} as const;

/** An operation whose description leads with its gate. */
export const ApiGatedOperation = (gate: keyof typeof GATES, summary: string, description?: string) =>
  ApiOperation({ summary, description: description ? `${GATES[gate]} ${description}` : GATES[gate] });

export const ApiOperationsValidationFailed = () => ApiValidationFailed('Invalid input `{message, errors: {field: [...]}}`');
