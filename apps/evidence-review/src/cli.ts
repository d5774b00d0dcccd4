import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import { migrateDatabase } from '@platform/database';
import { runCliAndExit } from '@platform/runtime';
import { CliIo, logCommand, profilesCommand, reviewCommand, taxonomyCommand } from './app/cli/evidence-commands';
import { buildReviewEngine } from './app/reviews/build-engine';
import { openReviewLog } from './app/reviews/review-log.connection';
import { EvidenceReviewConfig } from './config/evidence-review-config';

async function readInput(path: string | undefined): Promise<string> {
  if (path) return readFile(path, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const io = (args: string[]): CliIo => ({
  read: readInput,
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  progress: process.stderr.isTTY === true || args.includes('--progress'),
});

const config = () => EvidenceReviewConfig.load();
const openLog = () => openReviewLog(config());
const engine = () => buildReviewEngine(config().engine);

runCliAndExit('evidence-review', {
  migrate: {
    describe: 'create the database when missing and apply pending migrations',
    run: async (_args, log) => {
      const applied = await migrateDatabase(config().dataSourceOptions());
      log.info('migrations applied', { applied });
    },
  },
  seed: {
    describe: 'no demo data: reviews are created by use',
    run: async (_args, log) => log.info('nothing to seed'),
  },
  'evidence:review': {
    describe: '[file|-] [--profile=key] [--dry-run] [--pretty] [--progress]: review JSON or JSON lines; exit 0 clean, 2 findings, 1 error',
    run: (args) => reviewCommand(args, { engine: engine(), log: openLog }, io(args)),
  },
  'evidence:profiles': {
    describe: '[--pretty]: the configured risk profiles',
    run: async (args) => profilesCommand(args, engine(), io(args)),
  },
  'evidence:taxonomy': {
    describe: '[--pretty]: tiers, checks, verdicts and assertiveness values',
    run: async (args) => taxonomyCommand(args, engine(), io(args)),
  },
  'evidence:log': {
    describe: '[--limit=25] [--tenant=default] [--pretty]: newest review log entries',
    run: (args) => logCommand(args, { log: openLog }, io(args)),
  },
});
