module.exports = {
  displayName: 'evidence-engine',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/src/**/*.int-spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
  ],
  globalSetup: '../../libs/shared/testing/src/global-setup.mjs',
  globalTeardown: '../../libs/shared/testing/src/global-teardown.mjs',
};
