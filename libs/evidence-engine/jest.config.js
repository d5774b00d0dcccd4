const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('all', { name: 'evidence-engine', dir: __dirname });
