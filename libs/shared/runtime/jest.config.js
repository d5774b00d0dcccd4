const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('all', { name: 'shared-runtime', dir: __dirname });
