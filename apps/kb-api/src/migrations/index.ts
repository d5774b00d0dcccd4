import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { KbIdentity1763940000000 } from './1763940000000-identity';
import { KbDocuments1763950000000 } from './1763950000000-documents';
import { KbPromotionConversations1764000000000 } from './1764000000000-promotion-conversations';
import { KbCollectionsFeedback1764010000000 } from './1764010000000-collections-feedback';
import { KbWidget1764100000000 } from './1764100000000-widget';
import { KbMcp1764110000000 } from './1764110000000-mcp';
import { KbAdminKnowledge1764120000000 } from './1764120000000-admin-knowledge';
import { KbAdminInsight1764130000000 } from './1764130000000-admin-insight';
import { KbAdminOperations1764140000000 } from './1764140000000-admin-operations';
import { KbChunkEmbeddings1764150000000 } from './1764150000000-chunk-embeddings';
import { KbTenantRoleGrants1764160000000 } from './1764160000000-tenant-role-grants';
import { KbPlatformTenancy1764170000000 } from './1764170000000-platform-tenancy';
import { KbTenantRowSecurity1764180000000 } from './1764180000000-tenant-row-security';
import { KbIdentityLinks1764210000000 } from './1764210000000-identity-links';
import { KbBm25TermStats1764225000000 } from './1764225000000-bm25-term-stats';
import { KbIndirectInjection1764235000000 } from './1764235000000-indirect-injection';
import { KbBm25StatsStatementTriggers1764245000000 } from './1764245000000-bm25-stats-statement-triggers';
import { KbChunkTokenCount1764255000000 } from './1764255000000-chunk-token-count';
import { KbChunkGenerations1764265000000 } from './1764265000000-chunk-generations';

/** Every migration, in order; bundled into the build (no file globbing at runtime). */
export const migrations = [
  InitialSchema1763800000000, KbIdentity1763940000000, KbDocuments1763950000000, KbPromotionConversations1764000000000, KbCollectionsFeedback1764010000000,
  KbWidget1764100000000,
  KbMcp1764110000000,
  KbAdminKnowledge1764120000000,
  KbAdminInsight1764130000000,
  KbAdminOperations1764140000000,
  KbChunkEmbeddings1764150000000,
  KbTenantRoleGrants1764160000000,
  KbPlatformTenancy1764170000000,
  KbTenantRowSecurity1764180000000,
  KbIdentityLinks1764210000000,
  KbBm25TermStats1764225000000,
  KbIndirectInjection1764235000000,
  KbBm25StatsStatementTriggers1764245000000,
  KbChunkTokenCount1764255000000,
  KbChunkGenerations1764265000000,
];
