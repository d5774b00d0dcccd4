import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { MessageBody } from '../api-docs';

/** The refusals of a global route gated by platform.admin (a tenant super-admin does not hold it). */
export const ApiPlatformOnly = () =>
  applyDecorators(
    ApiResponse({ status: 401, description: 'Guest `{message: "Unauthenticated."}`', type: MessageBody }),
    ApiResponse({
      status: 403,
      description: 'The caller does not hold the global platform.admin permission (a tenant super-admin does not) `{message}`',
      type: MessageBody,
    }),
  );
