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
