const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('all', { name: 'evidence-review', dir: __dirname });
