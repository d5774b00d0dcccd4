import { runCli } from './cli';

describe('runCli', () => {
  let stderr: string;
  const write = process.stderr.write.bind(process.stderr);
  beforeEach(() => {
    stderr = '';
    process.stderr.write = ((chunk: string) => {
      stderr += chunk;
      return true;
    }) as typeof process.stderr.write;
  });
  afterEach(() => {
    process.stderr.write = write;
  });

  const tasks = {
    ok: { describe: 'succeeds', run: async () => true },
    code: { describe: 'returns 2', run: async () => 2 },
    boom: { describe: 'throws', run: async () => Promise.reject(new Error('disk full')) },
  };

  it('refuses unknown or missing tasks with usage and exit 64', async () => {
    expect(await runCli('svc', tasks, ['nope'])).toBe(64);
    expect(stderr).toContain('unknown task "nope"');
    expect(stderr).toContain('boom');
    expect(await runCli('svc', tasks, [])).toBe(64);
  });

  it('exits 0 for success whatever the task resolves to, or the number it returns', async () => {
    expect(await runCli('svc', tasks, ['ok'])).toBe(0);
    expect(await runCli('svc', tasks, ['code'])).toBe(2);
  });

  it('exits 1 on failure and logs one JSON line naming the error', async () => {
    expect(await runCli('svc', tasks, ['boom'])).toBe(1);
    const line = JSON.parse(stderr.trim().split('\n').pop()!);
    expect(line).toMatchObject({ level: 'error', service: 'svc', task: 'boom', error: 'disk full' });
  });
});
