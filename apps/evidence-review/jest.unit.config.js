const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('unit', { name: 'evidence-review', dir: __dirname });
