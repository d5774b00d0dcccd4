import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import { EnvelopeCipher } from '@platform/crypto';
import { DomainError, toProblem } from '@platform/observability';
import type Redis from 'ioredis';

export interface IdempotentResult {
  status: number;
  body: unknown;
  replayed: boolean;
}

const KEY_PATTERN = /^[\x21-\x7e]{8,255}$/;
const IN_FLIGHT_TTL_SEC = 60;
const RESULT_TTL_SEC = 24 * 3600;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * `Idempotency-Key` for management writes, kept in Redis so every replica agrees. Per actor: the
 * first call claims the key and runs; a repeat with the same request replays the stored answer
 * (the same secret, encrypted at rest) with `Idempotency-Replayed: true`; the same key with another
 * request is 422; a call still in flight is 409. 5xx answers are not stored, so a retry re-runs.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    private readonly cipher: EnvelopeCipher,
  ) {}

  async run(actor: string, key: string | undefined, request: string, operation: () => Promise<{ status: number; body: unknown }>): Promise<IdempotentResult> {
    if (!key) throw new DomainError('idempotency_key_required', 422, 'the Idempotency-Key header is required on writes');
    if (!KEY_PATTERN.test(key)) throw new DomainError('idempotency_key_invalid', 422, 'Idempotency-Key must be 8-255 visible ASCII characters');
    const slot = `iam:idem:${sha256(actor)}:${sha256(key)}`;
    const fingerprint = sha256(request);
    const claimed = await this.redis.set(slot, JSON.stringify({ state: 'in_flight', fingerprint }), 'EX', IN_FLIGHT_TTL_SEC, 'NX');
    if (!claimed) {
      const stored = JSON.parse((await this.redis.get(slot)) ?? '{}') as { state?: string; fingerprint?: string; result?: string };
      if (stored.fingerprint !== fingerprint) {
        throw new DomainError('idempotency_key_reused', 422, 'this Idempotency-Key was already used with a different request');
      }
      if (stored.state !== 'done' || !stored.result) throw new DomainError('idempotency_in_progress', 409, 'a request with this Idempotency-Key is still in progress');
      const result = JSON.parse(this.cipher.decrypt(stored.result, `idempotency:${slot}`)) as { status: number; body: unknown };
      return { ...result, replayed: true };
    }
    let result: { status: number; body: unknown };
    try {
      result = await operation();
    } catch (e) {
      const problem = toProblem(e);
      if (problem.status >= 500) {
        await this.redis.del(slot);
        throw e;
      }
      result = { status: problem.status, body: problem };
    }
    const sealed = this.cipher.encrypt(JSON.stringify(result), `idempotency:${slot}`);
    await this.redis.set(slot, JSON.stringify({ state: 'done', fingerprint, result: sealed }), 'EX', RESULT_TTL_SEC);
    return { ...result, replayed: false };
  }
}
