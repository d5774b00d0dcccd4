const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('all', { name: 'guardrails', dir: __dirname });
