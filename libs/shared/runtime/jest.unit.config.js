const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'shared-runtime', dir: __dirname });
