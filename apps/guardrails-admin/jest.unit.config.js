const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('unit', { name: 'guardrails-admin', dir: __dirname });
