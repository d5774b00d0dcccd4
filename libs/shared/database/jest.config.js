const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('all', { name: 'shared-database', dir: __dirname });
