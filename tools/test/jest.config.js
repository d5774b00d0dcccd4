const { jestTier } = require('./jest-tier.js');

module.exports = jestTier('all', { name: 'workspace-tools', dir: __dirname, sources: ['spec'] });
