import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TENANT_ID } from '../tenancy/tenants.repository';

export type TenantStatus = 'active' | 'suspended';

interface Read {
  promise: Promise<TenantStatus | null>;
  start: () => void;
}

/**
 * A tenant's status, read from the database for every request but shared between requests: each
 * caller gets the answer of a read that started after it asked, so a suspension committed before a
 * request arrives is always seen (the same as one query per request), while concurrent requests for
 * one tenant share one round trip. At most one read per tenant is in flight; callers that arrive
 * meanwhile wait for the next one, which starts when it ends.
 */
@Injectable()
export class TenantStatusReader {
  private readonly inFlight = new Map<string, Promise<TenantStatus | null>>();
  private readonly next = new Map<string, Read>();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  status(tenantId: string): Promise<TenantStatus | null> {
    if (!TENANT_ID.test(tenantId)) return Promise.resolve(null);
    const queued = this.next.get(tenantId);
    if (queued) return queued.promise;
    const running = this.inFlight.get(tenantId);
    if (!running) return this.begin(tenantId);
    const read = this.deferred(tenantId);
    this.next.set(tenantId, read);
    running.then(read.start, read.start);
    return read.promise;
  }

  private deferred(tenantId: string): Read {
    let start!: () => void;
    const promise = new Promise<TenantStatus | null>((resolve, reject) => {
      start = () => {
        this.next.delete(tenantId);
        this.begin(tenantId).then(resolve, reject);
      };
    });
    return { promise, start };
  }

  private begin(tenantId: string): Promise<TenantStatus | null> {
    const read = (
      this.db.query('SELECT status FROM kb_tenants WHERE id = $1', [tenantId]) as Promise<
        Array<{ status: TenantStatus }>
      >
    ).then(([row]) => row?.status ?? null);
    this.inFlight.set(tenantId, read);
    const done = () => {
      if (this.inFlight.get(tenantId) === read) this.inFlight.delete(tenantId);
    };
    read.then(done, done);
    return read;
  }
}
