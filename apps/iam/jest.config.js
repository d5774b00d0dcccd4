const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('all', { name: 'iam', dir: __dirname });
