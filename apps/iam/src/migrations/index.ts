import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { AuthorizationCodeFlow1763810000000 } from './1763810000000-authorization-code-flow';
import { ClientSecretLifecycle1763820000000 } from './1763820000000-client-secret-lifecycle';
import { InteractiveLogin1763830000000 } from './1763830000000-interactive-login';
import { ResourceIndicatorsParDpop1764200000000 } from './1764200000000-resource-indicators-par-dpop';
import { UnregisteredClients1764210000000 } from './1764210000000-unregistered-clients';
import { RefreshAccessTokenJti1764220000000 } from './1764220000000-refresh-access-token-jti';

/** Every migration, in order; bundled into the build (no file globbing at runtime). */
export const migrations = [
  InitialSchema1763800000000,
  AuthorizationCodeFlow1763810000000,
  ClientSecretLifecycle1763820000000,
  InteractiveLogin1763830000000,
  ResourceIndicatorsParDpop1764200000000,
  UnregisteredClients1764210000000,
  RefreshAccessTokenJti1764220000000,
];
