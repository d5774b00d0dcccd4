const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('all', { name: 'gateway', dir: __dirname });
