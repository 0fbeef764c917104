/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // middy and other ESM-only packages are transpiled to CommonJS along with our TypeScript.
  transform: {
    '^.+\\.(t|m?j)s$': ['ts-jest', { tsconfig: { isolatedModules: true, module: 'commonjs', moduleResolution: 'node10', allowJs: true, esModuleInterop: true, resolveJsonModule: true } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@middy|mrz|any-ascii|double-metaphone)/)'],
  testTimeout: 60000,
  // Refuses to run on an older Node.js than the Lambdas (package.json engines).
  globalSetup: '<rootDir>/test/engine-setup.ts',
  setupFiles: ['<rootDir>/test/env-setup.ts'],
};
