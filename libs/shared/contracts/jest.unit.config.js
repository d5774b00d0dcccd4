const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'shared-contracts', dir: __dirname });
