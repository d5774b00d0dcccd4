// Runs one Postgres or Redis of the fault tests' own, as a child process the test can stop and
// start again (a restart of the data store under a running platform). Prints "ready <url>" once it
// answers; SIGTERM stops it cleanly. The machine's shared servers are never touched.
//   node infra-process.mjs postgres <port> <dataDir>
//   node infra-process.mjs redis <port> <dir>     (append-only file in <dir>: queued jobs survive)
import { startEmbeddedPostgres, startRedisServer } from '../../dev/infra.mjs';

const [kind, port, dir] = process.argv.slice(2);
const server = kind === 'postgres' ? await startEmbeddedPostgres({ port: Number(port), dataDir: dir }) : await startRedisServer({ port: Number(port), dir });
process.stdout.write(`ready ${server.url}\n`);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => undefined, 1 << 30);
