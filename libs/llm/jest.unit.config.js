const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'llm', dir: __dirname });
