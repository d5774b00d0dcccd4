const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('int', { name: 'iam', dir: __dirname });
