const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'shared-testing', dir: __dirname });
