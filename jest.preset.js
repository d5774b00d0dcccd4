// One Jest preset for every project: @swc/jest with decorator metadata (Nest DI needs it),
// tsconfig path aliases, and ESM-only dependencies (jose) let through the transform.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace('/', '\\/')}$`] = path.join(__dirname, target);
}

const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true, dynamicImport: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

module.exports = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', swcOptions] },
  transformIgnorePatterns: ['/node_modules/(?!(jose|openid-client|oauth4webapi)/)'],
  moduleNameMapper,
  clearMocks: true,
  // e2e files boot whole services (migrations, Nest, matcher threads) before their first test; on a
  // busy 2-core machine that can take more than Jest's 5 s default. Timings are never asserted by it.
  testTimeout: 30_000,
};
