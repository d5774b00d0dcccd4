import { EvidenceError, parseReviewRequest, ReviewEngine } from '@platform/evidence-engine';
import type { ReviewLogRepository } from '../reviews/review-log.repository';

export interface CliIo {
  /** The whole input (a file's content or stdin). */
  read(path: string | undefined): Promise<string>;
  out(text: string): void;
  err(text: string): void;
  /** Show a progress bar for batches (stderr is a terminal, or --progress). */
  progress: boolean;
}

export interface ReviewCommandDeps {
  engine: ReviewEngine;
  /** Opened lazily: a dry run needs no database. */
  log: () => Promise<{ repo: ReviewLogRepository; close: () => Promise<void> }>;
}

/** `--flag` and `--key=value` options plus positional arguments. */
export function parseFlags(args: string[]): { flags: Record<string, string | true>; positional: string[] } {
  const flags: Record<string, string | true> = {};
  const positional: string[] = [];
  for (const a of args) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (m) flags[m[1]] = m[2] ?? true;
    else positional.push(a);
  }
  return { flags, positional };
}

const json = (value: unknown, pretty: boolean) => JSON.stringify(value, null, pretty ? 2 : undefined);

function errorBody(e: unknown) {
  if (e instanceof EvidenceError) return { error: { code: e.code, message: e.message, details: e.details } };
  return { error: { code: 'internal_error', message: e instanceof Error ? e.message : String(e), details: [] } };
}

function bar(done: number, total: number): string {
  const width = 30;
  const filled = Math.round((done / total) * width);
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
}

/**
 * `evidence:review [file|-]`: one JSON request, or JSON lines (one request per line, results as
 * JSON lines). Exit 0 when nothing was found, 2 when any review has a finding, 1 on any error.
 */
export async function reviewCommand(args: string[], deps: ReviewCommandDeps, io: CliIo): Promise<number> {
  const { flags, positional } = parseFlags(args);
  const pretty = flags['pretty'] === true;
  const dryRun = flags['dry-run'] === true;
  const profile = typeof flags['profile'] === 'string' ? flags['profile'] : undefined;
  let text: string;
  try {
    text = await io.read(positional[0] === '-' ? undefined : positional[0]);
  } catch (e) {
    io.err(json({ error: { code: 'unreadable_input', message: (e as Error).message, details: [] } }, false) + '\n');
    return 1;
  }
  if (text.trim() === '') {
    io.err(json({ error: { code: 'empty_input', message: 'No review request given.', details: [] } }, false) + '\n');
    return 1;
  }
  let payloads: unknown[];
  try {
    payloads = [JSON.parse(text)];
  } catch {
    try {
      payloads = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown);
    } catch {
      io.err(json({ error: { code: 'invalid_json', message: 'Input is neither one JSON document nor JSON lines.', details: [] } }, false) + '\n');
      return 1;
    }
  }
  const batch = payloads.length > 1;
  let logHandle: Awaited<ReturnType<ReviewCommandDeps['log']>> | undefined;
  let anyFinding = false;
  try {
    for (const [i, payload] of payloads.entries()) {
      const raw = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
      const envelope = typeof raw['artifact'] === 'object' ? raw : { artifact: raw, options: raw['options'] };
      const options = { ...((envelope['options'] as object) ?? {}), ...(profile ? { profile_key: profile } : {}), ...(dryRun ? { dry_run: true } : {}) };
      const request = parseReviewRequest({ artifact: envelope['artifact'], options });
      const result = await deps.engine.reviewRequest(request);
      if (!result.metadata.dry_run) {
        logHandle ??= await deps.log();
        await logHandle.repo.append(request.artifact.tenant_id ?? 'default', { artifact: request.artifact, options: request.options, result });
      }
      anyFinding ||= result.findings.length > 0;
      io.out(json(result, pretty && !batch) + '\n');
      if (batch && io.progress) io.err(bar(i + 1, payloads.length) + (i + 1 === payloads.length ? '\n' : ''));
    }
  } catch (e) {
    io.err(json(errorBody(e), false) + '\n');
    return 1;
  } finally {
    await logHandle?.close();
  }
  return anyFinding ? 2 : 0;
}

export function profilesCommand(args: string[], engine: ReviewEngine, io: CliIo): number {
  io.out(json(engine.listProfiles(), parseFlags(args).flags['pretty'] === true) + '\n');
  return 0;
}

export function taxonomyCommand(args: string[], engine: ReviewEngine, io: CliIo): number {
  io.out(json(engine.taxonomy(), parseFlags(args).flags['pretty'] === true) + '\n');
  return 0;
}

/** `evidence:log [--limit=25] [--tenant=default] [--pretty]`: the newest log entries. */
export async function logCommand(args: string[], deps: Pick<ReviewCommandDeps, 'log'>, io: CliIo): Promise<number> {
  const { flags } = parseFlags(args);
  const limit = typeof flags['limit'] === 'string' && /^\d+$/.test(flags['limit']) ? Math.min(100, Math.max(1, Number(flags['limit']))) : 25;
  const tenant = typeof flags['tenant'] === 'string' ? flags['tenant'] : 'default';
  const handle = await deps.log();
  try {
    const page = await handle.repo.list(tenant, { page: 1, perPage: limit });
    io.out(json({ store: 'database', tenant, entries: page.data }, flags['pretty'] === true) + '\n');
    return 0;
  } finally {
    await handle.close();
  }
}
