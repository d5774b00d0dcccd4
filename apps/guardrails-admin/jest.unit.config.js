const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('unit', { name: 'guardrails-admin', dir: __dirname });
