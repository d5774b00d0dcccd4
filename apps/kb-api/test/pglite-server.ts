import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export interface PgliteServer {
  /** Server URL; PGlite has one database, whatever name a client asks for. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts pglite-server.mjs (PGlite + pgvector behind the Postgres wire protocol) in a child process:
 * a Postgres with the `vector` extension available, which the machine's own server lacks.
 */
export async function startPgliteServer(): Promise<PgliteServer> {
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, 'pglite-server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`pglite-server exited with ${code} before it was ready`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
  });
  child.removeAllListeners('exit');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}
