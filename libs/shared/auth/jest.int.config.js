const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('int', { name: 'shared-auth', dir: __dirname });
