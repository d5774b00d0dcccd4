const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('unit', { name: 'llm', dir: __dirname });
