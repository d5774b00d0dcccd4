import { Inject, Injectable, Optional } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { DrainingService } from './draining.service';

export interface CheckResult {
  status: 'up' | 'down';
  latency_ms?: number;
  error?: string;
}

export interface ReadinessReport {
  status: 'ok' | 'error';
  checks: Record<string, CheckResult>;
}

export interface ReadinessCheck {
  name: string;
  /** false: reported for information only; a failure does not make the process unready. */
  critical?: boolean;
  check: () => Promise<CheckResult>;
}

async function timed(fn: () => Promise<unknown>, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latency_ms: Math.round((performance.now() - started) * 10) / 10 };
  } catch (e) {
    return { status: 'down', error: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

/** Postgres, Redis and the draining flag; shared by HTTP apps and workers' health ports. */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly draining: DrainingService,
    @Optional() private readonly dataSource?: DataSource,
    @Optional() @Inject(REDIS_CLIENT) private readonly redis?: Redis,
  ) {}

  private readonly extra: ReadinessCheck[] = [];

  /** Adds an app-specific check (the gateway registers its upstreams). */
  register(check: ReadinessCheck): void {
    this.extra.push(check);
  }

  async report(timeoutMs = 1500): Promise<ReadinessReport> {
    const checks: Record<string, CheckResult> = {};
    const pending: Array<Promise<void>> = [];
    if (this.dataSource) {
      const ds = this.dataSource;
      pending.push(timed(() => ds.query('SELECT 1'), timeoutMs).then((r) => void (checks['postgres'] = r)));
    }
    if (this.redis) {
      const redis = this.redis;
      pending.push(timed(() => redis.ping(), timeoutMs).then((r) => void (checks['redis'] = r)));
    }
    for (const c of this.extra) pending.push(c.check().then((r) => void (checks[c.name] = r)));
    await Promise.all(pending);
    checks['draining'] = this.draining.isDraining ? { status: 'down', error: 'shutting down' } : { status: 'up' };
    const informational = new Set(this.extra.filter((c) => c.critical === false).map((c) => c.name));
    const ok = Object.entries(checks).every(([name, c]) => c.status === 'up' || informational.has(name));
    return { status: ok ? 'ok' : 'error', checks };
  }
}
