module.exports = {
  displayName: 'workspace-tools',
  preset: '../../jest.preset.js',
  rootDir: '.',
  testMatch: ['<rootDir>/spec/**/*.spec.ts'],
  globalSetup: '../../libs/shared/testing/src/global-setup.mjs',
  globalTeardown: '../../libs/shared/testing/src/global-teardown.mjs',
};
