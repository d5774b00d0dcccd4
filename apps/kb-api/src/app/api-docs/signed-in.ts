import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody, MessageBody } from './error-bodies';

/**
 * The refusals of a route any signed-in user may call: 401 for a guest, 403 for a credential the
 * route does not take (an integration token without a user, a token without the ability) or a
 * tenant refusal.
 */
export const ApiSignedIn = (forbidden = 'An integration token without a user, or a tenant refusal `{message}` / `{error}`') =>
  applyDecorators(
    ApiResponse({ status: 401, description: 'Guest `{message: "Unauthenticated."}`', type: MessageBody }),
    ApiResponse({ status: 403, description: forbidden, type: ErrorBody }),
  );

/** 404 for a row that is missing or belongs to another user (the two are indistinguishable by design). */
export const ApiNotOwned = () =>
  ApiResponse({ status: 404, description: "Missing, or another user's row `{error: \"not_found\", message}`", type: ErrorBody });
