const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('e2e', { name: 'workspace-tools', dir: __dirname, sources: ['spec'] });
