/** Jest 30 with ts-jest (transpile only; `tsc --noEmit` type-checks before jest runs). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
  moduleNameMapper: { '^obsidian$': '<rootDir>/test/host/index.ts' },
  testTimeout: 60000,
  // Two suites at a time: most wait on HTTP, disk watchers and child processes, so two fit the two
  // cores CI has (Jest's default, cores − 1, ran them one by one: 850–905 s against about 540 s).
  maxWorkers: 2,
  // How long a worker may take to exit once the run ends before Jest kills it and prints "A worker process
  // has failed to exit gracefully" (Jest's default: 500 ms). No handle is left open at that point (checked
  // with every handle and timer listed as the end message arrives); a worker that ran half the suites holds
  // about 1 GB of heap, and the kernel took 1.2–1.7 s to unmap it on the 2-core CI machine. A server or
  // interval a suite leaks still keeps its worker alive past this, and is reported.
  workerGracefulExitTimeout: 5000,
  // A worker whose heap passes 1 GB after a suite is replaced, which bounds that exit: over test/integration
  // alone, workers ended at 1.6-1.8 GB and took 2.9-3.1 s to go; with this, two were replaced and the last
  // two ended at 0.9-1.2 GB and went in 1.9-2.2 s. A whole run (unit and integration in the same workers) grows them more.
  workerIdleMemoryLimit: '1GB',
  // One throwaway vault registry folder per run (boot-plugin.ts), removed at its end.
  globalSetup: '<rootDir>/test/harness/env/registry-setup.cjs',
  globalTeardown: '<rootDir>/test/harness/env/registry-teardown.cjs',
};
