import { INestApplicationContext } from '@nestjs/common';
import { PasswordHasher } from '@platform/crypto';
import { UsersRepository } from './users.repository';

const MIN_PASSWORD_LENGTH = 12;

function option(args: string[], name: string): string | undefined {
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  return hit?.slice(name.length + 3);
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new Error('pipe the password on stdin (it is never taken as an argument, which would leave it in shell history)');
  let data = '';
  for await (const chunk of process.stdin) data += chunk;
  return data.replace(/\r?\n$/, '');
}

/** `iam:create-user`: creates a user or resets an existing one's password (by email). */
export async function createUser(ctx: INestApplicationContext, args: string[]): Promise<{ id: string; email: string; active: boolean }> {
  const email = option(args, 'email')?.trim();
  if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new Error('--email=<address> is required');
  const name = option(args, 'name') ?? '';
  let hash: string | null = null;
  if (!args.includes('--no-password')) {
    const password = await readStdin();
    if (password.length < MIN_PASSWORD_LENGTH) throw new Error(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
    hash = await ctx.get(PasswordHasher).hash(password);
  }
  const users = ctx.get(UsersRepository);
  const user = await users.upsertByEmail(email, name, hash);
  const active = !args.includes('--deactivate');
  await users.setActive(user.id, active);
  return { id: user.id, email: user.email, active };
}
