const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('int', { name: 'shared-queue', dir: __dirname });
