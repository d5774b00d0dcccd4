const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('all', { name: 'shared-health', dir: __dirname });
