/** Jest 30 with ts-jest (transpile only; `tsc --noEmit` type-checks before jest runs). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  moduleNameMapper: { '^obsidian$': '<rootDir>/test/host/index.ts' },
  testTimeout: 60000,
};
