const { jestTier } = require('../../jest.tiers.js');

module.exports = jestTier('all', { name: 'guardrails-admin', dir: __dirname });
