const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('int', { name: 'kb-api', dir: __dirname });
