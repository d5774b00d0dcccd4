const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('all', { name: 'llm', dir: __dirname });
