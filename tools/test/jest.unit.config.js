const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'workspace-tools', dir: __dirname, sources: ['spec'] });
