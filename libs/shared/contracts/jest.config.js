const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('all', { name: 'shared-contracts', dir: __dirname });
