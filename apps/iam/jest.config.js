const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('all', { name: 'iam', dir: __dirname });
