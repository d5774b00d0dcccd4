const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('int', { name: 'shared-observability', dir: __dirname });
