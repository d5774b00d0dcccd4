const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('int', { name: 'guardrails', dir: __dirname });
