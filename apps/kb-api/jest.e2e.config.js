const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('e2e', { name: 'kb-api', dir: __dirname });
