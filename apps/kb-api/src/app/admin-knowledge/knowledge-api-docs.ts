import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiGuarded, ApiTenantHeader, ApiValidationFailed, DATE_TIME, nullable } from '../api-docs';

/** What every admin knowledge route shares in the document: its tag, its gate's answers, the tenant header. */
export const ApiKnowledgeAdmin = () => applyDecorators(ApiTags('Admin knowledge'), ApiGuarded(), ApiTenantHeader());

const G1 = 'Gate G1 (`role:admin|super-admin` in the active tenant).';

/** An operation whose description leads with the gate every route here has. */
export const ApiG1Operation = (summary: string, description?: string) =>
  ApiOperation({ summary, description: description ? `${G1} ${description}` : G1 });

/** 422 as the knowledge admin routes answer it: the field named, unknown keys refused. */
export const ApiKnowledgeValidationFailed = () =>
  ApiValidationFailed('Validation failure naming the field `{message, errors: {field: [messages]}}`; unknown keys are refused');

/** `{data, defaults, updated_at}`: a tenant's settings of one kind beside their defaults. */
export const ApiSettings = <T extends Type<unknown>>(model: T, description = 'Settings') =>
  applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: 200,
      description,
      schema: {
        type: 'object',
        required: ['data', 'defaults', 'updated_at'],
        properties: {
          data: { $ref: getSchemaPath(model) },
          defaults: { $ref: getSchemaPath(model) },
          updated_at: nullable(DATE_TIME),
        },
      },
    }),
  );
