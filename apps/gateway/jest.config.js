const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('all', { name: 'gateway', dir: __dirname });
