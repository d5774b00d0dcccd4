const { jestTier } = require('./jest-tier.js');

module.exports = jestTier('unit', { name: 'workspace-tools', dir: __dirname, sources: ['spec'] });
