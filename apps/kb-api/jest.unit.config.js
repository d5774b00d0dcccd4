const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('unit', { name: 'kb-api', dir: __dirname });
