// Require hook for benchmark scripts: compiles workspace TypeScript on load with swc (CommonJS,
// legacy decorators with metadata as Nest needs, ES2022) and resolves the @platform/* aliases
// from tsconfig.base.json, so a script can require() a library's source without a build.
//   node -r ./tools/bench/swc-register.cjs tools/bench/<name>.bench.mjs
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../..');
const { compilerOptions } = JSON.parse(
  fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'),
);
const baseUrl = path.resolve(root, compilerOptions.baseUrl ?? '.');

// "@platform/x": ["libs/x/src/index.ts"]; a trailing "/*" pattern maps the rest of the name.
const exact = new Map();
const prefixed = [];
for (const [alias, [target]] of Object.entries(compilerOptions.paths ?? {})) {
  if (alias.endsWith('/*'))
    prefixed.push([alias.slice(0, -1), path.join(baseUrl, target.replace(/\*$/, ''))]);
  else exact.set(alias, path.join(baseUrl, target));
}

function aliasTarget(request) {
  if (exact.has(request)) return exact.get(request);
  const hit = prefixed.find(([prefix]) => request.startsWith(prefix));
  return hit ? hit[1] + request.slice(hit[0].length) : request;
}

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveWithAliases(request, ...rest) {
  return resolveFilename.call(this, aliasTarget(request), ...rest);
};

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

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...swcOptions, filename });
  module._compile(code, filename);
};
