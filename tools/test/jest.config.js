const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('all', { name: 'workspace-tools', dir: __dirname, sources: ['spec'] });
