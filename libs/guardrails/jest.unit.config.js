const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'guardrails', dir: __dirname });
