const { jestTier } = require('../../../tools/test/jest-tier.js');

module.exports = jestTier('unit', { name: 'shared-crypto', dir: __dirname });
