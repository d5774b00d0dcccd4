const { jestTier } = require('../../../tools/test/jest-tier.js');

module.exports = jestTier('all', { name: 'shared-observability', dir: __dirname });
