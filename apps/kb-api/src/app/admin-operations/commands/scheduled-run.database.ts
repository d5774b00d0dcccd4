import { Clock } from '@platform/runtime';
import { DataSource } from 'typeorm';
import type { KbConfig } from '../../../config/kb-config';
import { TenantsRepository } from '../../tenancy/tenants.repository';
import { CommandRunsRepository } from './command-runs.repository';
import { MaintenanceRepository } from './maintenance.repository';
import type { ScheduledRunRepositories } from './scheduled-run';

/**
 * The database side of a scheduled run outside Nest (the CLI has no module graph): the
 * repositories a run needs, on one connection. This is wiring, like src/data-source.ts: no SQL here.
 * Retention windows are measured from `clock` (the real time outside tests).
 */
export function scheduledRunRepositories(db: DataSource, clock = new Clock()): ScheduledRunRepositories {
  return { tenants: new TenantsRepository(db), runs: new CommandRunsRepository(db), rows: new MaintenanceRepository(db, clock) };
}

/** Opens kb-api's database for one scheduled run; `close` ends the connection. */
export async function openScheduledRunRepositories(config: KbConfig): Promise<{ repos: ScheduledRunRepositories; close: () => Promise<void> }> {
  const db = await new DataSource(config.dataSourceOptions()).initialize();
  return { repos: scheduledRunRepositories(db), close: () => db.destroy() };
}
