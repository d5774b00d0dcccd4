const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('all', { name: 'shared-auth', dir: __dirname });
