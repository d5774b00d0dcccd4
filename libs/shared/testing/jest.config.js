const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('all', { name: 'shared-testing', dir: __dirname });
