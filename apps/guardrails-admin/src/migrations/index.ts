import { GUARDRAILS_MIGRATIONS } from '@platform/guardrails';
import { InitialSchema1763800000000 } from './1763800000000-initial-schema';

/** Every migration, in order; bundled into the build (no file globbing at runtime). The stores' schema comes with the library. */
export const migrations = [InitialSchema1763800000000, ...GUARDRAILS_MIGRATIONS];
