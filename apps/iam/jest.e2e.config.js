const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('e2e', { name: 'iam', dir: __dirname });
