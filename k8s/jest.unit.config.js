const { jestTier } = require('../jest.tiers.js');

module.exports = jestTier('unit', { name: 'k8s', dir: __dirname, sources: ['tests'] });
