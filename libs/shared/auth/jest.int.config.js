const { jestTier } = require('../../../tools/test/jest-tier.js');

module.exports = jestTier('int', { name: 'shared-auth', dir: __dirname });
