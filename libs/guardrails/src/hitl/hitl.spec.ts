import { MemoryApprovalSidecar, MemoryApprovalStore } from '../memory/memory-approval-store';
import { ApprovalSidecarStore } from '../ports/approval-store.port';
import { Clock } from '../ports/keyset-page';
import { approvalActor, decideApproval, newApproval } from './approval';
import { ApprovalService } from './approval-service';
import { generateApprovalToken, hashApprovalToken, isWellFormedApprovalToken } from './approval-token';
import { timeAgo, timeUntil } from './relative-time';

class TestClock implements Clock {
  constructor(private t = new Date('2026-03-01T10:00:00Z')) {}
  now() {
    return new Date(this.t);
  }
  advance(minutes: number) {
    this.t = new Date(this.t.getTime() + minutes * 60_000);
  }
}

describe('approval tokens', () => {
  it('are 43-character base64url strings stored only as their SHA-256', () => {
    const token = generateApprovalToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateApprovalToken()).not.toBe(token);
    expect(hashApprovalToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(isWellFormedApprovalToken(token)).toBe(true);
    expect(isWellFormedApprovalToken('a/b')).toBe(false);
    expect(isWellFormedApprovalToken('')).toBe(false);
  });
});

describe('approval state machine', () => {
  const now = new Date('2026-03-01T10:00:00Z');
  const { record, token } = newApproval({ tool: 'refund', arguments: { order: 'A1' }, principalId: 7, now, ttlMinutes: 30 });

  it('creates a pending approval with a paused run, a hashed token and an expiry', () => {
    expect(record).toMatchObject({ status: 'pending', run_status: 'paused', step_name: 'approval', principal_id: '7', token_hash: hashApprovalToken(token) });
    expect(record.expires_at).toEqual(new Date('2026-03-01T10:30:00Z'));
    expect(newApproval({ tool: 't', arguments: {}, principalId: null, now, ttlMinutes: 0 }).record.expires_at).toBeNull();
  });

  it('decides once; the same decision again is idempotent, the opposite one a conflict', () => {
    const approved = decideApproval(record, 'approved', {}, now);
    expect(approved).toMatchObject({ kind: 'decided', record: { status: 'approved', run_status: 'running', decided_at: now } });
    const decided = approved.kind === 'decided' ? approved.record : record;
    expect(decideApproval(decided, 'approved', {}, now).kind).toBe('already');
    expect(decideApproval(decided, 'rejected', {}, now).kind).toBe('conflict');
    expect(decideApproval(record, 'rejected', {}, now)).toMatchObject({ kind: 'decided', record: { status: 'rejected', run_status: 'failed' } });
  });

  it('refuses expired and unknown approvals', () => {
    expect(decideApproval(record, 'approved', {}, new Date('2026-03-01T10:30:00Z')).kind).toBe('expired');
    expect(decideApproval(undefined, 'approved', {}, now).kind).toBe('unknown');
  });

  it('keeps flat scalar actor fields from the client but derives principal and channel on the server', () => {
    expect(approvalActor({ name: 'Ann', principal_id: 'forged', nested: { a: 1 }, n: 2 }, 'u-1', 'guardrails.api')).toEqual({
      name: 'Ann', n: 2, principal_id: 'u-1', via: 'guardrails.api',
    });
    expect(approvalActor('junk', null, 'guardrails.api')).toEqual({ principal_id: null, via: 'guardrails.api' });
  });

  it('describes durations in words', () => {
    expect(timeAgo(new Date(now.getTime() - 120_000), now)).toBe('2 minutes ago');
    expect(timeAgo(now, now)).toBe('0 seconds ago');
    expect(timeUntil(new Date(now.getTime() + 28 * 60_000 + 5_000), now)).toBe('in 28 minutes');
    expect(timeUntil(new Date(now.getTime() + 3_600_000), now)).toBe('in 1 hour');
  });
});

describe('ApprovalService', () => {
  const noErrors = (e: unknown, _port: string): void => {
    throw e;
  };

  function setup(sidecar: ApprovalSidecarStore | null = new MemoryApprovalSidecar(), onPortError = noErrors) {
    const clock = new TestClock();
    const service = new ApprovalService(new MemoryApprovalStore(), sidecar ?? undefined, clock, 30, onPortError);
    const runs: unknown[] = [];
    service.registerExecutor('refund', async (args) => {
      runs.push(args);
      return { refunded: args['order'] };
    });
    return { clock, service, runs };
  }

  it('parks a call and runs it through its executor exactly once when approved', async () => {
    const { service, runs } = setup();
    const parked = await service.park('refund', { order: 'A1' }, 7);
    expect(parked.message).toBe(`This action requires human approval. Reference: ${parked.run_id} (expires 2026-03-01T10:30:00.000Z).`);
    expect(parked.message).not.toContain(parked.token);
    expect(await service.decide(parked.token, 'approved', {})).toEqual({ decision: 'approved', executed: true, result: { refunded: 'A1' } });
    expect(await service.decide(parked.token, 'approved', {})).toEqual({ decision: 'approved', executed: false });
    expect(await service.decide(parked.token, 'rejected', {})).toEqual({ decision: 'failed', error: 'decision_failed' });
    expect(runs).toEqual([{ order: 'A1' }]);
  });

  it('executes once under concurrent approvals of one token', async () => {
    const { service, runs } = setup();
    const parked = await service.park('refund', { order: 'B2' }, 7);
    const results = await Promise.all(Array.from({ length: 10 }, () => service.decide(parked.token, 'approved', {})));
    expect(results.filter((r) => r.decision === 'approved' && r.executed)).toHaveLength(1);
    expect(results.every((r) => r.decision === 'approved')).toBe(true);
    expect(runs).toHaveLength(1);
  });

  it('discards a rejected call, and refuses expired, unknown and malformed tokens', async () => {
    const { service, runs, clock } = setup();
    const rejected = await service.park('refund', { order: 'C3' }, 7);
    expect(await service.decide(rejected.token, 'rejected', {})).toEqual({ decision: 'rejected' });
    expect(await service.decide(rejected.token, 'approved', {})).toEqual({ decision: 'failed', error: 'decision_failed' });
    const late = await service.park('refund', { order: 'D4' }, 7);
    clock.advance(31);
    expect(await service.decide(late.token, 'approved', {})).toEqual({ decision: 'failed', error: 'decision_failed' });
    expect(await service.decide(generateApprovalToken(), 'approved', {})).toEqual({ decision: 'failed', error: 'decision_failed' });
    expect(await service.decide('../etc', 'approved', {})).toEqual({ decision: 'failed', error: 'decision_failed' });
    expect(runs).toEqual([]);
  });

  it('lists pending approvals with the sidecar enrichment, newest first', async () => {
    const { service, clock } = setup();
    await service.park('refund', { order: 'E5', customer_id: 7 }, 7);
    clock.advance(2);
    const second = await service.park('delete_user', { user_id: 7 }, 7);
    clock.advance(1);
    const pending = await service.listPending();
    expect(pending.map((p) => p.tool)).toEqual(['delete_user', 'refund']);
    expect(pending[0]).toMatchObject({
      run_id: second.run_id, step_name: 'approval', status: 'pending', arguments: { user_id: 7 },
      requested_ago: '1 minute ago', expires_in: 'in 29 minutes', created_at: '2026-03-01T10:02:00.000Z',
    });
    expect(await service.countPending()).toBe(2);
  });

  it('shows an empty tool and arguments without a sidecar, and survives a failing sidecar', async () => {
    const bare = setup(null).service;
    await bare.park('refund', { order: 'F6' }, 7);
    expect((await bare.listPending())[0]).toMatchObject({ tool: '', arguments: {} });

    const failures: string[] = [];
    const broken: ApprovalSidecarStore = {
      put: async () => Promise.reject(new Error('disk full')),
      getMany: async () => Promise.reject(new Error('down')),
      sweep: async () => 0,
      purge: async () => 0,
    };
    const { service, runs } = setup(broken, (_e, port) => {
      failures.push(port);
    });
    const parked = await service.park('refund', { order: 'G7' }, 7);
    expect(await service.listPending()).toHaveLength(1);
    expect(await service.decide(parked.token, 'approved', {})).toMatchObject({ decision: 'approved', executed: true });
    expect(runs).toEqual([{ order: 'G7' }]);
    expect(failures).toEqual(['hitl_sidecar', 'hitl_sidecar']);
  });

  it('reports a failing executor and a missing one without losing the decision', async () => {
    const { service } = setup();
    service.registerExecutor('explode', async () => Promise.reject(new Error('boom')));
    const a = await service.park('explode', {}, 1);
    expect(await service.decide(a.token, 'approved', {})).toEqual({ decision: 'approved', executed: true, error: 'boom' });
    const b = await service.park('unregistered', {}, 1);
    expect(await service.decide(b.token, 'approved', {})).toMatchObject({ decision: 'approved', executed: false, error: expect.stringMatching(/no executor/) });
  });

  it('is unavailable without an approval store', async () => {
    const service = new ApprovalService(undefined, undefined, new TestClock(), 30, noErrors);
    expect(service.available).toBe(false);
    await expect(service.park('refund', {}, 1)).rejects.toThrow(/unavailable/);
    expect(await service.decide(generateApprovalToken(), 'approved', {})).toEqual({ decision: 'unavailable', error: 'hitl_unavailable' });
    expect(await service.listPending()).toEqual([]);
    expect(await service.countPending()).toBe(0);
  });
});
