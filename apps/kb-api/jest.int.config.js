const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('int', { name: 'kb-api', dir: __dirname });
