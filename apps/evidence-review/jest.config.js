const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('all', { name: 'evidence-review', dir: __dirname });
