module.exports = {
  displayName: 'k8s',
  preset: '../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/tests/**/*.spec.ts'],
  globalSetup: '../libs/shared/testing/src/global-setup.mjs',
  globalTeardown: '../libs/shared/testing/src/global-teardown.mjs',
};
