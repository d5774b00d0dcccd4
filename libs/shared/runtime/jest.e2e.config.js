const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('e2e', { name: 'shared-runtime', dir: __dirname });
