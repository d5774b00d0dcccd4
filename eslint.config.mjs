import nx from '@nx/eslint-plugin';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Resolves what the TypeScript sources import the way tsc does: relative files by their .ts name and
 * the @platform/* aliases through tsconfig.base.json's paths, so import cycles are found across
 * projects too. Packages under node_modules are not followed (ignoreExternal).
 */
const tsResolver = createNodeResolver({
  extensions: ['.ts', '.d.ts', '.js', '.json', '.node'],
  conditionNames: ['types', 'import', 'require', 'default'],
  tsconfig: { configFile: path.join(root, 'tsconfig.base.json') },
});

/** Which kinds of project each kind may import (ARCHITECTURE.md, reference/platform.md §2). */
const typeRules = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:data-access', 'type:util', 'type:contract'] },
  { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:data-access', 'type:util', 'type:contract'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contract'] },
  {
    sourceTag: 'type:contract',
    onlyDependOnLibsWithTags: ['type:contract'],
    bannedExternalImports: ['typeorm', '@nestjs/typeorm', 'bullmq', '@nestjs/bullmq', 'ioredis', 'pg'],
  },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:data-access', 'type:util', 'type:contract', 'type:testing'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['*'] },
];

const scopeRules = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  ...['iam', 'guardrails', 'kb', 'evidence', 'gateway'].map((s) => ({
    sourceTag: `scope:${s}`,
    onlyDependOnLibsWithTags: [`scope:${s}`, 'scope:shared'],
  })),
];

const boundaries = (extraTypeRules = []) => [
  'error',
  {
    enforceBuildableLibDependency: true,
    banTransitiveDependencies: false,
    allow: [],
    depConstraints: [...typeRules.map((r) => ({ ...r, onlyDependOnLibsWithTags: [...r.onlyDependOnLibsWithTags, ...extraTypeRules] })), ...scopeRules],
  },
];

/** Deep imports into another project's internals bypass its public index. */
const deepImports = { group: ['@platform/*/**'], message: 'import from the package root' };

/** One validation style in every service: inputs (bodies, queries, tool arguments) are class-validator DTOs. */
const otherValidation = 'validation is class-validator DTOs';

export default [
  { ignores: ['**/dist', '**/node_modules', '**/tmp', 'tools/bin', '**/*.js', '**/*.mjs', '**/*.cjs', '.nx'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(),
      'no-restricted-imports': ['error', { patterns: [deepImports] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // Env classes need explicit property types: class-transformer reads them from decorator metadata.
      '@typescript-eslint/no-inferrable-types': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // No import cycles: a cycle makes load order decide what a module sees (an undefined class at
    // decoration time), and it means two files cannot be understood apart.
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [tsResolver],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // Packages are never part of a cycle of ours: do not parse them.
      'import-x/ignore': ['node_modules'],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Tests may use the testing library (JWKS issuer, database provisioning); production code may not.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/test/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(['type:testing']) },
  },
  {
    // Restates the rule above for services and libraries, adding the validation libraries they may not use.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: otherValidation }], patterns: [deepImports, { group: ['zod/*'], message: otherValidation }] },
      ],
    },
  },
];
