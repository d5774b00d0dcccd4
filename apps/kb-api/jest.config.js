const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('all', { name: 'kb-api', dir: __dirname });
