const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('all', { name: 'kb-api', dir: __dirname });
