const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('e2e', { name: 'evidence-review', dir: __dirname });
