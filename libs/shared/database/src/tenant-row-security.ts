import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource } from 'typeorm';

/**
 * The setting row-level security policies compare a row's tenant with:
 * `tenant_id = current_setting('app.tenant_id', true)`. Unset or empty, it matches no row.
 */
export const TENANT_SETTING = 'app.tenant_id';

const scope = new AsyncLocalStorage<string>();

/**
 * Runs `fn` with every query it (and whatever it awaits or starts) sends through a DataSource
 * prepared by `confineToTenant` confined to `tenantId`'s rows.
 */
export function runAsTenant<T>(tenantId: string, fn: () => T): T {
  if (typeof tenantId !== 'string' || tenantId === '') throw new Error('runAsTenant needs a tenant id');
  return scope.run(tenantId, fn);
}

/** The tenant the current call chain is confined to, if any. */
export function currentTenantScope(): string | undefined {
  return scope.getStore();
}

interface PooledClient {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}
type Release = (error?: unknown) => void;
interface PostgresDriverLike {
  obtainMasterConnection(): Promise<[PooledClient, Release]>;
}

/** The tenant each pooled connection's session is currently confined to (absent: the owner's). */
const sessionTenant = new WeakMap<PooledClient, string>();
const prepared = new WeakMap<DataSource, string>();

/**
 * Every connection this DataSource hands out inside `runAsTenant` runs as `role` (a role without
 * BYPASSRLS that does not own the tables, so their policies apply) with `app.tenant_id` set to the
 * tenant; outside it, as the connecting user (migrations, workers, platform-wide routes).
 *
 * The role and setting are session state applied when a connection is checked out of the pool,
 * not per transaction: a per-transaction `SET LOCAL` would wrap every plain query in BEGIN/COMMIT,
 * three more round trips each. Instead a connection remembers what it was set to and is changed
 * only when the next borrower needs something else, so a run of one tenant's queries costs
 * nothing extra. A connection whose switch fails is discarded and the query fails: never run a
 * tenant's query with the owner's reach.
 */
export function confineToTenant(dataSource: DataSource, role: string): void {
  if (dataSource.options.type !== 'postgres') throw new Error('tenant row security needs a postgres DataSource');
  const already = prepared.get(dataSource);
  if (already === role) return;
  if (already !== undefined) throw new Error(`DataSource already confined with role ${already}`);
  const driver = dataSource.driver as unknown as PostgresDriverLike;
  const obtain = driver.obtainMasterConnection.bind(driver);
  driver.obtainMasterConnection = async () => {
    const wanted = scope.getStore();
    const [client, release] = await obtain();
    if (sessionTenant.get(client) === wanted) return [client, release];
    try {
      if (wanted === undefined) {
        // 'none' is Postgres's spelling of RESET ROLE for set_config.
        await client.query(`SELECT set_config('role', 'none', false), set_config($1, '', false)`, [TENANT_SETTING]);
        sessionTenant.delete(client);
      } else {
        await client.query(`SELECT set_config('role', $1, false), set_config($2, $3, false)`, [role, TENANT_SETTING, wanted]);
        sessionTenant.set(client, wanted);
      }
    } catch (e) {
      sessionTenant.delete(client);
      release(e);
      throw e;
    }
    return [client, release];
  };
  prepared.set(dataSource, role);
}
