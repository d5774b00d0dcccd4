const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('all', { name: 'shared-observability', dir: __dirname });
