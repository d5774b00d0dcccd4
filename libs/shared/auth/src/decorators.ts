import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Principal } from './principal';

export const PUBLIC_KEY = 'platform:auth:public';
export const SCOPES_KEY = 'platform:auth:scopes';

/** The route needs no token (health, metrics, public discovery). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** Every listed scope must be present in the token (permissions travel as scopes). */
export const RequireScopes = (...scopes: string[]) => SetMetadata(SCOPES_KEY, scopes);

/** Injects the verified caller. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal | undefined => ctx.switchToHttp().getRequest().principal,
);

export const PROTECTED_RESOURCE_KEY = 'platform:auth:protected-resource';

/**
 * The route is this service's OAuth protected resource (OAUTH_RESOURCE): its 401 and 403
 * challenges name the RFC 9728 metadata (`resource_metadata`), so a client can discover iam.
 */
export const ProtectedResource = () => SetMetadata(PROTECTED_RESOURCE_KEY, true);
