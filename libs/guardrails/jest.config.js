const { jestTier } = require('../../tools/test/jest-tier.js');

module.exports = jestTier('all', { name: 'guardrails', dir: __dirname });
