/**
 * The `cli.ts` entrypoint of every service: `node cli.js <task> [args]`. Unknown tasks are
 * refused with the list of known ones; every task logs one JSON line per event and the process
 * exits non-zero on failure so a Kubernetes Job is marked failed.
 */
/** Resolves to an exit code, or to anything else for success (0). */
export type CliTask = (args: string[], log: CliLogger) => Promise<unknown>;

export interface CliLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;

}

export function jsonLogger(service: string, stream: NodeJS.WritableStream = process.stderr): CliLogger {
  const write = (level: string, msg: string, fields?: Record<string, unknown>): void => {
    stream.write(JSON.stringify({ level, time: new Date().toISOString(), service, msg, ...fields }) + '\n');
  };
  return { info: (m, f) => write('info', m, f), error: (m, f) => write('error', m, f) };
}

export async function runCli(
  service: string,
  tasks: Record<string, { describe: string; run: CliTask }>,
  argv: string[] = process.argv.slice(2),
): Promise<number> {
  const log = jsonLogger(service);
  const [name, ...args] = argv;
  const task = name ? tasks[name] : undefined;
  if (!task) {
    const list = Object.entries(tasks)
      .map(([k, t]) => `  ${k.padEnd(28)} ${t.describe}`)
      .join('\n');
    process.stderr.write(`${name ? `unknown task "${name}"` : 'no task given'}\nusage: cli <task> [args]\ntasks:\n${list}\n`);
    return 64;
  }
  const started = Date.now();
  try {
    const result = await task.run(args, log);
    const code = typeof result === 'number' ? result : 0;
    log.info('task finished', { task: name, exit_code: code, duration_ms: Date.now() - started });
    return code;
  } catch (e) {
    log.error('task failed', { task: name, error: e instanceof Error ? e.message : String(e) });
    return 1;
  }
}

/** For cli.ts files: run and exit with the task's code. */
export function runCliAndExit(service: string, tasks: Parameters<typeof runCli>[1]): void {
  runCli(service, tasks).then(
    (code) => process.exit(code),
    () => process.exit(1),
  );
}
