const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('e2e', { name: 'gateway', dir: __dirname });
