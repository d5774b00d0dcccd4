const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('all', { name: 'evidence-engine', dir: __dirname });
