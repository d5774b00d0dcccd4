import { JOBS } from '@platform/contracts';
import type { Queue } from 'bullmq';
import type { DocumentStorage } from '../../ingest/document-storage';
import type { IngestJobData } from '../../ingest/ingest.service';
import { ParamSpec, ParamValues } from './command-params';
import { MaintenanceRepository, PURGE_BATCH } from './maintenance.repository';

/** What a command touches: the tenant's rows, the document storage and the ingest queue. */
export interface CommandContext {
  rows: MaintenanceRepository;
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

const olderThanDays = (def: number, what: string): ParamSpec => ({
  name: 'older_than_days',
  type: 'integer',
  description: `Only ${what} older than this many days`,
  default: def,
  minimum: 1,
  maximum: 3650,
});

export const MAINTENANCE_COMMANDS: readonly MaintenanceCommand[] = [
  {
    name: 'prune-expired-auth',
    description: 'Deletes expired cookie sessions and expired personal access tokens',
    destructive: false,
    params: [],
    preview: (ctx) => ctx.rows.expiredAuth(ctx.tenantId),
    run: (ctx) => ctx.rows.deleteExpiredAuth(ctx.tenantId),
  },
  {
    name: 'purge-deleted-documents',
    description: 'Removes documents deleted longer ago than the grace period: their rows, chunks and stored originals',
    destructive: true,
    params: [{ name: 'grace_days', type: 'integer', description: 'Days a deleted document stays restorable', default: 30, minimum: 1, maximum: 3650 }],
    preview: async (ctx, p) => {
      const row = await ctx.rows.documentsPastGrace(ctx.tenantId, p.grace_days as number);
      return { ...row, stored_files: row.documents };
    },
    run: async (ctx, p) => {
      const counts = { documents: 0, chunks: 0, stored_files: 0 };
      for (;;) {
        const gone = await ctx.rows.deleteDocumentsPastGrace(ctx.tenantId, p.grace_days as number);
        for (const g of gone) {
          counts.documents++;
          counts.chunks += g.chunk_count;
          // A restored document of the same path takes a new row, so a purged key is nobody's file.
          await ctx.storage.remove(g.storage_key);
          counts.stored_files++;
        }
        if (gone.length < PURGE_BATCH) return counts;
      }
    },
  },
  {
    name: 'prune-chat-logs',
    description: 'Deletes chat log entries older than N days',
    destructive: true,
    params: [olderThanDays(90, 'chat log entries')],
    preview: async (ctx, p) => ({ chat_logs: await ctx.rows.oldChatLogs(ctx.tenantId, p.older_than_days as number) }),
    run: async (ctx, p) => ({ chat_logs: await ctx.rows.deleteOldChatLogs(ctx.tenantId, p.older_than_days as number) }),
  },
  {
    name: 'prune-notifications',
    description: 'Deletes notifications older than N days (by default only those read or dismissed)',
    destructive: false,
    params: [olderThanDays(90, 'notifications'), { name: 'only_read', type: 'boolean', description: 'Keep unread notifications', default: true }],
    preview: async (ctx, p) => ({ notifications: await ctx.rows.oldNotifications(ctx.tenantId, p.older_than_days as number, p.only_read as boolean) }),
    run: async (ctx, p) => ({ notifications: await ctx.rows.deleteOldNotifications(ctx.tenantId, p.older_than_days as number, p.only_read as boolean) }),
  },
  {
    name: 'reindex-project',
    description: "Re-dispatches the ingest job of every document of a project (each is converted, chunked and swapped in again); documents stay searchable meanwhile",
    destructive: false,
    params: [{ name: 'project_key', type: 'string', description: 'The project to reindex', required: true, maxLength: 120 }],
    preview: async (ctx, p) => ({ ingest_jobs: await ctx.rows.reindexable(ctx.tenantId, p.project_key as string) }),
    run: async (ctx, p) => {
      const queue = ctx.ingestQueue;
      if (!queue) throw new Error('reindex-project dispatches ingest jobs: run it through the admin API');
      const docs = await ctx.rows.forgetIndexedHashes(ctx.tenantId, p.project_key as string);
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
