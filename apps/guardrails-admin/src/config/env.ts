import { AuthenticatedServiceEnv } from '@platform/config';

/** Every variable guardrails-admin reads; validated at boot (see .env.example). */
export class GuardrailsAdminEnv extends AuthenticatedServiceEnv {
  override PORT: number = 3002;
}
