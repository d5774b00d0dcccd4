const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('all', { name: 'shared-crypto', dir: __dirname });
