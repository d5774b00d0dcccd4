// The test tiers, defined once for every project:
//   unit  `*.spec.ts`      no Postgres, no Redis, no network: `nx test <project>` (jest.unit.config.js)
//   int   `*.int-spec.ts`  one component against a real Postgres/Redis: `nx run <project>:test-int`
//   e2e   `*.e2e-spec.ts`  a whole service (or the platform) over HTTP: `nx run <project>:test-e2e`
//   all   every tier of the project (its jest.config.js), for running one file of any tier:
//         `npx jest -c apps/kb-api/jest.config.js apps/kb-api/test/retrieve.e2e-spec.ts`
// `npm test` provisions Postgres and Redis once and runs every tier of every project (the root
// jest.config.js collects the tier targets); a lone int, e2e or all run provisions them itself
// (libs/shared/testing/src/global-setup.mjs).
const path = require('node:path');

const ROOT = __dirname;
const SUFFIX = { unit: '.spec.ts', int: '.int-spec.ts', e2e: '.e2e-spec.ts' };
const ALL = Object.values(SUFFIX);

/**
 * @param {'unit'|'int'|'e2e'|'all'} tier
 * @param {{ name: string, dir: string, sources?: string[] }} project  dir: the project's folder
 *   (__dirname of its config); sources: folders its test files live in, relative to it.
 */
function jestTier(tier, { name, dir, sources = ['src', 'test'] }) {
  const config = {
    displayName: tier === 'unit' || tier === 'all' ? name : `${name}:${tier}`,
    preset: path.relative(dir, path.join(ROOT, 'jest.preset.js')),
    rootDir: '.',
    testMatch: sources.flatMap((s) => (tier === 'all' ? ALL : [SUFFIX[tier]]).map((suffix) => `<rootDir>/${s}/**/*${suffix}`)),
  };
  if (tier === 'unit') return config;
  const setup = path.relative(dir, path.join(ROOT, 'libs/shared/testing/src'));
  return { ...config, globalSetup: `${setup}/global-setup.mjs`, globalTeardown: `${setup}/global-teardown.mjs` };
}

module.exports = { jestTier };
