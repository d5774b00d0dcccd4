const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('int', { name: 'shared-database', dir: __dirname });
