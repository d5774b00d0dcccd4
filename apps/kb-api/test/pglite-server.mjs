// A PGlite (in-memory Postgres, WASM) with the pgvector extension, served over the Postgres wire
// protocol so the app connects through pg/typeorm as to any server. Run as a child process: the
// packages are ESM-only and stay out of the Jest transform. Prints `ready <port>` once listening
// and exits when its parent closes stdin.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const db = await PGlite.create({ extensions: { vector } });
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
await server.start();
const port = Number(new URL(`postgres://${server.getServerConn()}`).port);
process.stdout.write(`ready ${port}\n`);

const shutdown = async () => {
  await server.stop();
  await db.close();
  process.exit(0);
};
process.stdin.on('end', shutdown);
process.stdin.resume();
process.on('SIGTERM', shutdown);
