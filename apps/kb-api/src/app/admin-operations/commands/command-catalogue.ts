import { JOBS } from '@platform/contracts';
import { queryRows } from '@platform/database';
import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { DocumentStorage } from '../../ingest/document-storage';
import type { IngestJobData } from '../../ingest/ingest.service';
import { ParamSpec, ParamValues } from './command-params';

/** What a command touches: the tenant's rows, the document storage and the ingest queue. */
export interface CommandContext {
  db: DataSource;
  tenantId: string;
  storage: DocumentStorage;
  /** Null outside the API (a scheduled CLI run): commands that dispatch jobs refuse to run there. */
  ingestQueue: Queue<IngestJobData> | null;
  /** Unique per run: names the jobs a run dispatches, so a second run is never deduplicated away. */
  runKey: string;
}

/** Counts by what changed (rows deleted, jobs dispatched…); preview and run report the same keys. */
export type CommandCounts = Record<string, number>;

export interface MaintenanceCommand {
  name: string;
  description: string;
  /** Destroys data that cannot be recovered: also needs permission commands.destructive. */
  destructive: boolean;
  params: readonly ParamSpec[];
  preview(ctx: CommandContext, p: ParamValues): Promise<CommandCounts>;
  run(ctx: CommandContext, p: ParamValues): Promise<CommandCounts>;
}

/** Deletes go in slices so a large purge never holds one long lock over a hot table. */
const BATCH = 2000;

async function count(ctx: CommandContext, sql: string, params: unknown[]): Promise<number> {
  const [row] = await queryRows<{ n: number }>(ctx.db, `SELECT count(*)::int AS n FROM ${sql}`, params);
  return row.n;
}

/** `table` rows matching `where` ($1 is the tenant), deleted slice by slice; returns how many went. */
async function deleteWhere(ctx: CommandContext, table: string, where: string, params: unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      ctx.db,
      `WITH gone AS (DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${where} LIMIT ${BATCH}) RETURNING 1) SELECT count(*)::int AS n FROM gone`,
      params,
    );
    total += row.n;
    if (row.n < BATCH) return total;
  }
}

const olderThanDays = (def: number, what: string): ParamSpec => ({
  name: 'older_than_days',
  type: 'integer',
  description: `Only ${what} older than this many days`,
  default: def,
  minimum: 1,
  maximum: 3650,
});

const AUTH_EXPIRED = 'tenant_id = $1 AND expires_at < now()';
const DELETED_PAST_GRACE = `tenant_id = $1 AND deleted_at IS NOT NULL AND deleted_at < now() - make_interval(days => $2)`;
const CHAT_LOGS_OLD = `tenant_id = $1 AND created_at < now() - make_interval(days => $2)`;
const NOTIFICATIONS_OLD = `tenant_id = $1 AND created_at < now() - make_interval(days => $2) AND ($3::boolean = false OR read_at IS NOT NULL OR dismissed_at IS NOT NULL)`;
const REINDEXABLE = `tenant_id = $1 AND project_key = $2 AND deleted_at IS NULL AND pending_hash IS NOT NULL`;

export const MAINTENANCE_COMMANDS: readonly MaintenanceCommand[] = [
  {
    name: 'prune-expired-auth',
    description: 'Deletes expired cookie sessions and expired personal access tokens',
    destructive: false,
    params: [],
    preview: async (ctx) => ({
      sessions: await count(ctx, `kb_sessions WHERE ${AUTH_EXPIRED}`, [ctx.tenantId]),
      personal_access_tokens: await count(ctx, `kb_personal_access_tokens WHERE ${AUTH_EXPIRED}`, [ctx.tenantId]),
    }),
    run: async (ctx) => ({
      sessions: await deleteWhere(ctx, 'kb_sessions', AUTH_EXPIRED, [ctx.tenantId]),
      personal_access_tokens: await deleteWhere(ctx, 'kb_personal_access_tokens', AUTH_EXPIRED, [ctx.tenantId]),
    }),
  },
  {
    name: 'purge-deleted-documents',
    description: 'Removes documents deleted longer ago than the grace period: their rows, chunks and stored originals',
    destructive: true,
    params: [{ name: 'grace_days', type: 'integer', description: 'Days a deleted document stays restorable', default: 30, minimum: 1, maximum: 3650 }],
    preview: async (ctx, p) => {
      const [row] = await queryRows<{ documents: number; chunks: number }>(
        ctx.db,
        `SELECT count(*)::int AS documents, coalesce(sum(chunk_count), 0)::int AS chunks FROM kb_documents WHERE ${DELETED_PAST_GRACE}`,
        [ctx.tenantId, p.grace_days],
      );
      return { ...row, stored_files: row.documents };
    },
    run: async (ctx, p) => {
      const counts = { documents: 0, chunks: 0, stored_files: 0 };
      for (;;) {
        const gone = await queryRows<{ storage_key: string; chunk_count: number }>(
          ctx.db,
          `DELETE FROM kb_documents WHERE id IN (SELECT id FROM kb_documents WHERE ${DELETED_PAST_GRACE} LIMIT ${BATCH}) RETURNING storage_key, chunk_count`,
          [ctx.tenantId, p.grace_days],
        );
        for (const g of gone) {
          counts.documents++;
          counts.chunks += g.chunk_count;
          // A restored document of the same path takes a new row, so a purged key is nobody's file.
          await ctx.storage.remove(g.storage_key);
          counts.stored_files++;
        }
        if (gone.length < BATCH) return counts;
      }
    },
  },
  {
    name: 'prune-chat-logs',
    description: 'Deletes chat log entries older than N days',
    destructive: true,
    params: [olderThanDays(90, 'chat log entries')],
    preview: async (ctx, p) => ({ chat_logs: await count(ctx, `kb_chat_logs WHERE ${CHAT_LOGS_OLD}`, [ctx.tenantId, p.older_than_days]) }),
    run: async (ctx, p) => ({ chat_logs: await deleteWhere(ctx, 'kb_chat_logs', CHAT_LOGS_OLD, [ctx.tenantId, p.older_than_days]) }),
  },
  {
    name: 'prune-notifications',
    description: 'Deletes notifications older than N days (by default only those read or dismissed)',
    destructive: false,
    params: [olderThanDays(90, 'notifications'), { name: 'only_read', type: 'boolean', description: 'Keep unread notifications', default: true }],
    preview: async (ctx, p) => ({
      notifications: await count(ctx, `kb_notifications WHERE ${NOTIFICATIONS_OLD}`, [ctx.tenantId, p.older_than_days, p.only_read]),
    }),
    run: async (ctx, p) => ({
      notifications: await deleteWhere(ctx, 'kb_notifications', NOTIFICATIONS_OLD, [ctx.tenantId, p.older_than_days, p.only_read]),
    }),
  },
  {
    name: 'reindex-project',
    description: "Re-dispatches the ingest job of every document of a project (each is converted, chunked and swapped in again); documents stay searchable meanwhile",
    destructive: false,
    params: [{ name: 'project_key', type: 'string', description: 'The project to reindex', required: true, maxLength: 120 }],
    preview: async (ctx, p) => ({ ingest_jobs: await count(ctx, `kb_documents WHERE ${REINDEXABLE}`, [ctx.tenantId, p.project_key]) }),
    run: async (ctx, p) => {
      const queue = ctx.ingestQueue;
      if (!queue) throw new Error('reindex-project dispatches ingest jobs: run it through the admin API');
      // Forgetting the indexed hash makes the indexer redo the current version instead of
      // answering "unchanged"; the status stays, so retrieval keeps serving the old chunks until the swap.
      const docs = await queryRows<{ id: string; pending_hash: string }>(
        ctx.db,
        `UPDATE kb_documents SET content_hash = NULL WHERE ${REINDEXABLE} RETURNING id, pending_hash`,
        [ctx.tenantId, p.project_key],
      );
      for (let i = 0; i < docs.length; i += 500) {
        await queue.addBulk(
          docs.slice(i, i + 500).map((d) => ({
            name: JOBS.ingestDocument,
            data: { tenantId: ctx.tenantId, documentId: d.id, hash: d.pending_hash },
            opts: { jobId: `reindex-${ctx.runKey}-${d.id}` },
          })),
        );
      }
      return { ingest_jobs: docs.length };
    },
  },
];

export const commandNamed = (name: string) => MAINTENANCE_COMMANDS.find((c) => c.name === name);
