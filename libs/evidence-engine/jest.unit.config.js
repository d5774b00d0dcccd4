const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'evidence-engine', dir: __dirname });
