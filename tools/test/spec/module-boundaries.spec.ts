import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../../..');

/**
 * Lints source text as if it were a file at `path`, with the workspace's real ESLint config (in a
 * child process: the flat config is an ES module, which Jest's sandbox cannot import).
 */
async function lintAs(path: string, code: string): Promise<string[]> {
  const r = spawnSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', path, '--format', 'json'], {
    cwd: root,
    input: code,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  const [result] = JSON.parse(r.stdout) as Array<{ messages: Array<{ severity: number; ruleId: string; message: string }> }>;
  return result.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('module boundaries (lint at error level)', () => {
  it('fails an import from one app into another', async () => {
    const errors = await lintAs('apps/gateway/src/leak.ts', "import { IamEnv } from '../../iam/src/config/env';\nexport const x = IamEnv;\n");
    expect(errors.join('\n')).toMatch(/@nx\/enforce-module-boundaries/);
  });

  it('fails production code that imports the testing library', async () => {
    const errors = await lintAs('apps/kb-api/src/leak.ts', "import { TestJwksIssuer } from '@platform/testing';\nexport const x = TestJwksIssuer;\n");
    expect(errors.join('\n')).toMatch(/enforce-module-boundaries/);
  });

  it('fails a shared library that reaches into a service scope', async () => {
    const errors = await lintAs('libs/shared/auth/src/leak.ts', "import { EvidenceReviewEnv } from '../../../../apps/evidence-review/src/config/env';\nexport const x = EvidenceReviewEnv;\n");
    expect(errors.length).toBeGreaterThan(0);
  });

  it('allows an app to use shared libraries, and tests to use the testing library', async () => {
    expect(await lintAs('apps/gateway/src/ok.ts', "import { SCOPES } from '@platform/contracts';\nexport const x = SCOPES;\n")).toEqual([]);
    expect(await lintAs('apps/kb-api/test/ok.e2e-spec.ts', "import { TestJwksIssuer } from '@platform/testing';\nexport const x = TestJwksIssuer;\n")).toEqual([]);
  });

  it('fails a deep import past a library entry point', async () => {
    const errors = await lintAs('apps/gateway/src/deep.ts', "import { JwtVerifier } from '@platform/auth/src/jwt-verifier';\nexport const x = JwtVerifier;\n");
    expect(errors.length).toBeGreaterThan(0);
  });
});
