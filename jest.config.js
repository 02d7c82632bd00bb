/** Jest 30 with ts-jest (transpile only; `tsc --noEmit` type-checks before jest runs). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
    // approx-string-match ships ES modules only; Jest runs CommonJS, so ts-jest compiles it too.
    '/node_modules/approx-string-match/.+\\.js$': ['ts-jest', { diagnostics: false, tsconfig: { allowJs: true } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!approx-string-match/)'],
  moduleNameMapper: { '^obsidian$': '<rootDir>/test/host/index.ts' },
  testTimeout: 60000,
  // Two suites at a time: most wait on HTTP, disk watchers and child processes, so two fit the two
  // cores CI has (Jest's default, cores − 1, ran them one by one: 850–905 s against about 540 s).
  maxWorkers: 2,
  // One throwaway vault registry folder per run (boot-plugin.ts), removed at its end.
  globalSetup: '<rootDir>/test/harness/registry-setup.cjs',
  globalTeardown: '<rootDir>/test/harness/registry-teardown.cjs',
};
