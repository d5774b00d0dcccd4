import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { ReviewLog1763830000000 } from './1763830000000-review-log';
import { ReviewLogOneRowPerReview1764200000000 } from './1764200000000-review-log-one-row-per-review';

/** Every migration, in order; bundled into the build (no file globbing at runtime). */
export const migrations = [InitialSchema1763800000000, ReviewLog1763830000000, ReviewLogOneRowPerReview1764200000000];
