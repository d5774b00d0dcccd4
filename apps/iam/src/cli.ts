import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadEnv } from '@platform/config';
import { migrateDatabase } from '@platform/database';
import { runCliAndExit } from '@platform/runtime';
import { ClientSecretsService } from './app/management/client-secrets.service';
import { SeedService } from './app/seed.service';
import { SessionsPurger } from './app/session/sessions-purger';
import { createUser } from './app/users/create-user';
import { SigningKeysService } from './app/keys/signing-keys.service';
import { CliModule } from './cli.module';
import { IamEnv } from './config/env';
import { dataSourceOptions } from './data-source';

async function withContext<T>(fn: (ctx: INestApplicationContext) => Promise<T>): Promise<T> {
  const ctx = await NestFactory.createApplicationContext(CliModule, { logger: ['error', 'warn'], abortOnError: false });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

runCliAndExit('iam', {
  migrate: {
    describe: 'create the database when missing and apply pending migrations',
    run: async (_args, log) => {
      const applied = await migrateDatabase(dataSourceOptions(loadEnv(IamEnv)));
      log.info('migrations applied', { applied });
    },
  },
  seed: {
    describe: 'create the bootstrap client and user (and demo clients outside production); idempotent',
    run: (_args, log) => withContext(async (ctx) => log.info('seeded', { clients_and_users: await ctx.get(SeedService).seed() })),
  },
  'iam:create-user': {
    describe: 'create a user or reset their password: --email=a@b --name="Ada" (password on stdin; --no-password for a social-only user, --deactivate to block sign-in)',
    run: (args, log) => withContext(async (ctx) => log.info('user saved', { ...(await createUser(ctx, args)) })),
  },
  'iam:purge-sessions': {
    describe: 'delete sessions that ended or expired more than a day ago (also a daily job in the worker)',
    run: (_args, log) => withContext(async (ctx) => log.info('sessions purged', await ctx.get(SessionsPurger).purge())),
  },
  'iam:rotate-due-secrets': {
    describe: 'rotate client secrets whose auto-rotation interval is due; clear lapsed pickups (daily)',
    run: (_args, log) =>
      withContext(async (ctx) => {
        const r = await ctx.get(ClientSecretsService).rotateDue();
        log.info(`${r.rotated.length} rotated, ${r.pending_cleared} pending cleared`, { rotated: r.rotated });
      }),
  },
  'iam:rotate-signing-keys': {
    describe: 'one signing-key rotation step (--force promotes the next key even if not due)',
    run: (args, log) =>
      withContext(async (ctx) => log.info('signing keys', { ...(await ctx.get(SigningKeysService).rotate({ force: args.includes('--force') })) })),
  },
});
