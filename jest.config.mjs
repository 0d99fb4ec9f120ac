// One jest configuration for the whole workspace: three projects that differ only in which files
// they run. Tests import workspace packages from their built dist (npm test builds first).
const swc = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' }, sourceMaps: 'inline' },
];

/** The shared project factory. */
function project(displayName, testMatch, extra = {}) {
  return {
    displayName,
    testEnvironment: 'node',
    rootDir: import.meta.dirname,
    roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/test'],
    testMatch,
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    transform: { '^.+\\.ts$': swc },
    extensionsToTreatAsEsm: ['.ts'],
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    ...extra,
  };
}

export default {
  // Integration and end-to-end hooks start consumers and processes; jest reads this only globally.
  testTimeout: 120_000,
  // Names the run, whose migrated template databases the suites copy (test/global-setup.mjs).
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  projects: [
    project('unit', ['**/*.spec.ts'], {
      testPathIgnorePatterns: ['/node_modules/', '/dist/', '\\.int\\.spec\\.ts$', '\\.e2e\\.spec\\.ts$'],
    }),
    project('integration', ['**/*.int.spec.ts']),
    project('e2e', ['<rootDir>/test/**/*.e2e.spec.ts']),
  ],
};
