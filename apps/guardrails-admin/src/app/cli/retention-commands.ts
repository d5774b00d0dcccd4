import { parseArgs } from 'node:util';
import { GuardrailsSettings, PostgresGuardrailsStores, RetentionReport, runRetention } from '@platform/guardrails';
import type { CliLogger } from '@platform/runtime';

export interface RetentionDeps {
  stores: PostgresGuardrailsStores;
  /** Effective settings: `retention.days` and `retention.strategy` are the defaults of a run. */
  settings: () => Promise<GuardrailsSettings>;
  now: () => Date;
}

const STRATEGIES = ['anonymize', 'purge', 'keep'] as const;

/**
 * `guardrails:retention [--strategy=…] [--days=N] [--actor=NAME] [--dry-run]`: the only way old
 * audit and HITL sidecar rows are anonymized or purged. The actor is written to the task's log line.
 */
export async function retentionCommand(args: string[], deps: RetentionDeps, log: CliLogger): Promise<RetentionReport> {
  const { values } = parseArgs({
    args,
    options: { strategy: { type: 'string' }, days: { type: 'string' }, actor: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
    strict: true,
  });
  const settings = await deps.settings();
  const strategy = (values.strategy ?? settings['retention.strategy']) as GuardrailsSettings['retention.strategy'];
  if (!STRATEGIES.includes(strategy)) throw new Error(`--strategy must be one of ${STRATEGIES.join(', ')}`);
  if (values.days !== undefined && !/^\d+$/.test(values.days)) throw new Error('--days must be an integer >= 0');
  const days = values.days !== undefined ? Number(values.days) : settings['retention.days'];
  const report = await runRetention(
    { audit: deps.stores.audit, sidecar: deps.stores.approvalSidecar },
    { strategy, days, dryRun: values['dry-run'] ?? false, actor: values.actor, now: deps.now() },
  );
  log.info('retention run', { ...report, actor: values.actor ?? null });
  return report;
}

/** `guardrails:purge-hitl-requests --actor=NAME`: erases the whole HITL sidecar (right to erasure). */
export async function purgeHitlRequestsCommand(args: string[], deps: Pick<RetentionDeps, 'stores'>, log: CliLogger): Promise<{ erased: number }> {
  const { values } = parseArgs({ args, options: { actor: { type: 'string' } }, strict: true });
  if (!values.actor?.trim()) throw new Error('--actor is required');
  if (!deps.stores.approvalSidecar) throw new Error('the HITL sidecar is not stored in the database (GUARDRAILS_HITL_REQUESTS_STORE)');
  const erased = await deps.stores.approvalSidecar.purge();
  log.info('hitl requests purged', { erased, actor: values.actor });
  // An object, not the count: the CLI runner reads a number as the exit code.
  return { erased };
}
