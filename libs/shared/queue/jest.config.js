const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('all', { name: 'shared-queue', dir: __dirname });
