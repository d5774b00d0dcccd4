const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'shared-health', dir: __dirname });
