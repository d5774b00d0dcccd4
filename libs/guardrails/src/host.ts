import type Redis from 'ioredis';
import { createGuardrails, Guardrails, GuardrailsOptions } from './guardrails';
import { MemoryApprovalSidecar } from './memory/memory-approval-store';
import { createPostgresStores, PostgresGuardrailsStores } from './postgres/pg-stores';
import { GuardrailsTables, TransactionalSqlRunner } from './postgres/tables';
import { LiveSettings, RedisSettingsPublisher } from './settings/live-settings';
import { GuardrailsSettingsService } from './settings/settings-service';
import { GuardrailsSettings } from './settings/setting-types';
import { Clock } from './ports/keyset-page';

export interface GuardrailsHostOptions {
  /** The guardrails database. */
  db: TransactionalSqlRunner;
  /** A Redis connection of its own for the SettingsChanged subscription. */
  subscriber: Redis;
  /** Publishes SettingsChanged when this host changes settings (hosts that only read may omit it). */
  publisher?: Redis;
  channel: string;
  /** The file defaults stored overrides are laid over. */
  defaults: GuardrailsSettings;
  tables?: Partial<GuardrailsTables>;
  /** `hitl_requests.store`. */
  sidecar: 'null' | 'array' | 'database';
  options?: GuardrailsOptions;
  onWarning: (message: string, error: unknown) => void;
  /** Periodic safety-net reload (ms); see LiveSettings. */
  reloadIntervalMs?: number;
  /** The host app's clock: audit times, approval expiry and settings change records follow it. */
  clock?: Clock;
}

export interface GuardrailsHost {
  guardrails: Guardrails;
  settings: GuardrailsSettingsService;
  stores: PostgresGuardrailsStores;
  stop(): Promise<void>;
}

/**
 * Everything a process needs to run the guardrails on the shared database: the Postgres stores,
 * the settings service, a Guardrails instance kept on the live settings by SettingsChanged, and the
 * matcher thread warmed up. Used by every host (the admin API, kb-api).
 */
export async function startGuardrailsHost(o: GuardrailsHostOptions): Promise<GuardrailsHost> {
  const stores = createPostgresStores(o.db, { tables: o.tables, sidecar: o.sidecar === 'database' });
  const settings = new GuardrailsSettingsService(stores.settings, o.defaults, {
    publisher: o.publisher ? new RedisSettingsPublisher(o.publisher, o.channel) : undefined,
    onPublishError: (e) => o.onWarning('SettingsChanged not published; hosts catch up on their periodic reload', e),
    clock: o.clock,
  });
  const guardrails = createGuardrails(
    await settings.effective(),
    {
      audit: stores.audit,
      firewallLog: stores.firewallLog,
      outputStats: stores.outputStats,
      approvals: stores.approvals,
      approvalSidecar: o.sidecar === 'database' ? stores.approvalSidecar : o.sidecar === 'array' ? new MemoryApprovalSidecar() : undefined,
      clock: o.clock,
    },
    { onPortError: (e, port) => o.onWarning(`guardrails ${port} write failed`, e), ...o.options },
  );
  const live = new LiveSettings({
    load: () => settings.effective(),
    apply: (next) => guardrails.updateSettings(next),
    subscriber: o.subscriber,
    channel: o.channel,
    reloadIntervalMs: o.reloadIntervalMs,
    onError: (e) => o.onWarning('settings reload failed; keeping the last good settings', e),
  });
  await live.start();
  await guardrails.warmUp();
  return {
    guardrails,
    settings,
    stores,
    stop: async () => {
      await live.stop();
      await guardrails.close();
    },
  };
}
