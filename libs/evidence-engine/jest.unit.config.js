const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('unit', { name: 'evidence-engine', dir: __dirname });
