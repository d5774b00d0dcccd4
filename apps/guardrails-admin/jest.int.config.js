const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('int', { name: 'guardrails-admin', dir: __dirname });
