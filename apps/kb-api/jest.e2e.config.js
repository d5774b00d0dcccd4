const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('e2e', { name: 'kb-api', dir: __dirname });
