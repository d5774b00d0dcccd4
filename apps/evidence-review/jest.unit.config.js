const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'evidence-review', dir: __dirname });
