import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { ReviewLog1763830000000 } from './1763830000000-review-log';

/** Every migration, in order; bundled into the build (no file globbing at runtime). */
export const migrations = [InitialSchema1763800000000, ReviewLog1763830000000];
