import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface TestDatabase {
  name: string;
  /** Server URL with the path set to this database. */
  url: string;
  /** Server URL (path untouched) for apps that take a server URL plus DATABASE_NAME. */
  serverUrl: string;
  drop(): Promise<void>;
}

function adminUrl(serverUrl: string): string {
  const u = new URL(serverUrl);
  u.pathname = '/postgres';
  return u.toString();
}

/** A fresh, empty database per test file on the provisioned server; drop() removes it. */
export async function createTestDatabase(prefix = 't'): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set: run tests through npm test or nx test');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`.toLowerCase();
  const admin = new Client({ connectionString: adminUrl(serverUrl) });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    serverUrl,
    drop: async () => {
      const c = new Client({ connectionString: adminUrl(serverUrl) });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A Redis key prefix unique to one test file, so parallel files never see each other's queues. */
export function testRedisPrefix(label = 't'): string {
  return `${label}-${randomBytes(4).toString('hex')}`;
}

/** A TCP port free right now on 127.0.0.1 (for servers whose URL must be known before they start). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
