const { jestTier } = require('../tools/test/jest-tier.js');

module.exports = jestTier('all', { name: 'k8s', dir: __dirname, sources: ['tests'] });
