const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('e2e', { name: 'gateway', dir: __dirname });
