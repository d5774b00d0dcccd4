const { jestTier } = require('../../../tools/test/jest-tier.js');

module.exports = jestTier('int', { name: 'shared-observability', dir: __dirname });
