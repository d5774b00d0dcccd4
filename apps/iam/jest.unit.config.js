const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'iam', dir: __dirname });
