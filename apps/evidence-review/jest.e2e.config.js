const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('e2e', { name: 'evidence-review', dir: __dirname });
