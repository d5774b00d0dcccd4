const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('int', { name: 'guardrails', dir: __dirname });
