const { jestTier } = require('../../../tools/test/jest-tier.js');

module.exports = jestTier('all', { name: 'shared-testing', dir: __dirname });
