/** Who is calling, as established from a verified token. */
export interface Principal {
  /** Subject: a user id, or the client id for client_credentials tokens. */
  sub: string;
  clientId?: string;
  scopes: string[];
  tenantId?: string;
  /** Authentication context (acr/amr) for user tokens. */
  acr?: string;
  claims: Record<string, unknown>;
}

export function principalFromClaims(claims: Record<string, unknown>): Principal {
  const scope = typeof claims['scope'] === 'string' ? (claims['scope'] as string) : '';
  return {
    sub: String(claims['sub']),
    clientId: typeof claims['client_id'] === 'string' ? (claims['client_id'] as string) : undefined,
    scopes: scope.split(' ').filter(Boolean),
    tenantId: typeof claims['tenant_id'] === 'string' ? (claims['tenant_id'] as string) : undefined,
    acr: typeof claims['acr'] === 'string' ? (claims['acr'] as string) : undefined,
    claims,
  };
}
