// Require hook for workspace scripts (benchmarks, generators): compiles the workspace's TypeScript on the fly with swc
// (decorator metadata on, as Nest needs) and resolves the @platform/* path aliases.
//   node -r ./tools/swc-register.cjs tools/bench/<name>.bench.mjs
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '..');
const { compilerOptions } = require(path.join(root, 'tsconfig.base.json'));
const aliases = Object.fromEntries(Object.entries(compilerOptions.paths).map(([k, [v]]) => [k, path.join(root, v)]));

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, aliases[request] ?? request, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
