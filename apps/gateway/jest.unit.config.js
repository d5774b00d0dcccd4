const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'gateway', dir: __dirname });
