const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('int', { name: 'evidence-review', dir: __dirname });
