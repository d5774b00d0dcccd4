const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'shared-database', dir: __dirname });
