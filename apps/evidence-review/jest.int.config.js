const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('int', { name: 'evidence-review', dir: __dirname });
