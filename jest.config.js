const { getJestProjectsAsync } = require('@nx/jest');

// testTimeout is read from the root config in a multi-project run (see jest.preset.js for why 30 s).
module.exports = async () => ({ testTimeout: 30_000, projects: await getJestProjectsAsync() });
