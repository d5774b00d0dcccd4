import { FirewallListQuery, FirewallLog, FirewallRejection, StoredFirewallRejection } from '../ports/firewall-log.port';
import { KeysetPage } from '../ports/keyset-page';
import { copy, inWindow, keysetPage } from './keyset';

export class MemoryFirewallLog implements FirewallLog {
  private rows: StoredFirewallRejection[] = [];
  private nextId = 1;

  async append(rejection: FirewallRejection): Promise<StoredFirewallRejection> {
    const row = { ...copy(rejection), id: this.nextId++ };
    this.rows.push(row);
    return copy(row);
  }

  async list(query: FirewallListQuery): Promise<KeysetPage<StoredFirewallRejection>> {
    return copy(
      keysetPage(this.rows, query, (r) =>
        (query.principal_id === undefined || r.principal_id === query.principal_id) &&
        (query.q === undefined || r.tool_name.includes(query.q) || r.tool_description.includes(query.q)) &&
        inWindow(r.occurred_at, query),
      ),
    );
  }
}
