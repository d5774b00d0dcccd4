import { Injectable } from '@nestjs/common';
import { runAsTenant } from '@platform/database';
import { TENANT_ID, TenantRow, TenantsRepository } from '../tenancy/tenants.repository';

export type TenantStatus = TenantRow['status'];

/**
 * The least time between the starts of two reads of one tenant, so that under load more callers
 * share each read (at most ~500 reads per second per tenant and process) for at most this much
 * added latency.
 */
export const TENANT_READ_GAP_MS = 2;

interface TenantReads {
  inFlight?: Promise<TenantStatus | null>;
  next?: { promise: Promise<TenantStatus | null>; start: () => void };
  lastStart: number;
}

/**
 * A tenant's status, read from the database for every request but shared between requests: each
 * caller gets the answer of a read that started after it asked, so a suspension committed before a
 * request arrives is always seen (the same as one query per request). At most one read per tenant
 * is in flight; callers that arrive meanwhile share the next one, which starts when it ends and at
 * least TENANT_READ_GAP_MS after it started.
 */
@Injectable()
export class TenantStatusReader {
  private readonly tenants = new Map<string, TenantReads>();

  constructor(private readonly tenantRows: TenantsRepository) {}

  status(tenantId: string): Promise<TenantStatus | null> {
    if (!TENANT_ID.test(tenantId)) return Promise.resolve(null);
    let reads = this.tenants.get(tenantId);
    if (!reads) {
      reads = { lastStart: 0 };
      this.tenants.set(tenantId, reads);
    }
    if (reads.next) return reads.next.promise;
    if (!reads.inFlight) return this.begin(tenantId, reads);
    const next = this.queue(tenantId, reads);
    const afterGap = () => {
      const wait = reads.lastStart + TENANT_READ_GAP_MS - Date.now();
      if (wait > 0) setTimeout(next.start, wait);
      else next.start();
    };
    reads.inFlight.then(afterGap, afterGap);
    return next.promise;
  }

  private queue(tenantId: string, reads: TenantReads): NonNullable<TenantReads['next']> {
    let start!: () => void;
    const promise = new Promise<TenantStatus | null>((resolve, reject) => {
      start = () => {
        reads.next = undefined;
        this.begin(tenantId, reads).then(resolve, reject);
      };
    });
    reads.next = { promise, start };
    return reads.next;
  }

  private begin(tenantId: string, reads: TenantReads): Promise<TenantStatus | null> {
    // Wall time, not the injectable clock: it paces real reads against setTimeout, and moving a
    // test's clock must not stall or bunch them.
    reads.lastStart = Date.now();
    // Read as the tenant's own role, as the request's handler then queries: a pooled connection is switched between the
    // owner's role and a tenant's only when the next borrower needs the other (tenant-row-security.ts), and a guard
    // reading as the owner made every request switch twice (two more round trips). kb_tenants is readable by the role.
    const read = runAsTenant(tenantId, () => this.tenantRows.statusOf(tenantId));
    reads.inFlight = read;
    const done = () => {
      if (reads.inFlight === read) reads.inFlight = undefined;
      // Idle tenants keep no state.
      if (!reads.inFlight && !reads.next) this.tenants.delete(tenantId);
    };
    read.then(done, done);
    return read;
  }
}
