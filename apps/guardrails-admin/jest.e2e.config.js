const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('e2e', { name: 'guardrails-admin', dir: __dirname });
