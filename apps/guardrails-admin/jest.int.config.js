const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('int', { name: 'guardrails-admin', dir: __dirname });
