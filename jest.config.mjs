// One jest configuration for the whole workspace: projects that differ only in which files
// they run. Tests import workspace packages from their built dist (npm test builds first).
const swc = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' }, sourceMaps: 'inline' },
];
// The dashboard's server-rendered templates (JSX, React's automatic runtime, as its tsconfig says).
const swcTsx = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
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
    transform: { '^.+\\.ts$': swc, '^.+\\.tsx$': swcTsx },
    extensionsToTreatAsEsm: ['.ts', '.tsx'],
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    ...extra,
  };
}

/**
 * e2e suites that need the machine to themselves: hundreds of swaps or payouts at once, whose gRPC
 * deadlines (504) do not hold when another suite's platform shares the 2 CPUs, and schemathesis,
 * whose two fuzzing workers load the machine as much and which, beside two other workers' suites
 * (and an `npm start` stack), did not finish its four phases within its fence (issue 37). npm test
 * runs them after the rest, on one worker (deploy/local/test.sh).
 */
const SERIAL_E2E = [
  'payments-concurrency',
  'payouts-concurrency',
  'payouts-fault',
  'schemathesis',
  'two-of-everything',
];

export default {
  // Integration and end-to-end hooks start consumers and processes; jest reads this only globally.
  // A fence for a hang, not a speed bound: the waits inside are in quiet-machine time and stretch
  // up to six times on a loaded machine (@corridor/testing MachineClock), so it leaves them room.
  testTimeout: 300_000,
  // Names the run, whose migrated template databases the suites copy (test/global-setup.mjs).
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  // The longest suites first, on a fresh clone too (test/slow-first-sequencer.mjs).
  testSequencer: '<rootDir>/test/slow-first-sequencer.mjs',
  projects: [
    project('unit', ['**/*.spec.ts'], {
      testPathIgnorePatterns: [
        '/node_modules/',
        '/dist/',
        '\\.int\\.spec\\.ts$',
        '\\.e2e\\.spec\\.ts$',
        '\\.skew\\.spec\\.ts$',
      ],
    }),
    project('integration', ['**/*.int.spec.ts']),
    project('e2e', ['<rootDir>/test/**/*.e2e.spec.ts'], {
      testPathIgnorePatterns: ['/node_modules/', '/dist/', ...SERIAL_E2E.map((name) => `/${name}\\.e2e\\.spec\\.ts$`)],
    }),
    project(
      'e2e-serial',
      SERIAL_E2E.map((name) => `<rootDir>/test/e2e/${name}.e2e.spec.ts`),
    ),
    // Issue 33's version-skew suite: this tree's services beside previous releases' builds
    // (deploy/local/skew.sh chooses the pairs and builds the releases first).
    project('skew', ['<rootDir>/test/skew/*.skew.spec.ts']),
  ],
};
