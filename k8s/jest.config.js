const { jestTier } = require('../jest.tiers.js');

module.exports = jestTier('all', { name: 'k8s', dir: __dirname, sources: ['tests'] });
