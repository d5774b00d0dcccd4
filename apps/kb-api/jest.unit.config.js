const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'kb-api', dir: __dirname });
