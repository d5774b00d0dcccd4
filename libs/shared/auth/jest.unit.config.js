const { jestTier } = require('../../../tools/test/jest-tier.js');

module.exports = jestTier('unit', { name: 'shared-auth', dir: __dirname });
