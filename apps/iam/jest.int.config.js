const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('int', { name: 'iam', dir: __dirname });
