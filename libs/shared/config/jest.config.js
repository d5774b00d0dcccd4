const { jestTier } = require('../../../jest.tiers.js');

module.exports = jestTier('all', { name: 'shared-config', dir: __dirname });
