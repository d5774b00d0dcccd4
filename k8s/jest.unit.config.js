const { jestTier } = require('../tools/test/jest-tier.js');

module.exports = jestTier('unit', { name: 'k8s', dir: __dirname, sources: ['tests'] });
