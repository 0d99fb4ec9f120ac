// jest's own order puts the suites that took longest last time first, but it knows their times only
// from its cache in /tmp: on a fresh clone (every CI run) it orders by file size, and a 2.5-minute
// suite could start last and run alone at the end. These suites, measured (decision 0024), start
// first whatever the cache holds; the rest keep jest's order.
import TestSequencer from '@jest/test-sequencer';

/** The longest suites of a run, longest first: file names without `.e2e.spec.ts` / `.int.spec.ts`. */
const SLOWEST = [
  'webhook-resilience',
  'dashboard-journey',
  'supervision',
  'webhook-delivery',
  'dashboard-first-collection',
  'read-your-writes',
  'kyc-sessions',
  'webhook-replay-mock',
  'outbox-crash',
  'hostile-input',
  'relay',
  'postgres-outage',
];

const rank = (path) => {
  const name = path
    .split('/')
    .pop()
    .replace(/\.(e2e|int)\.spec\.ts$/, '');
  const index = SLOWEST.indexOf(name);
  return index === -1 ? SLOWEST.length : index;
};

const Sequencer = TestSequencer.default ?? TestSequencer;

export default class SlowFirstSequencer extends Sequencer {
  async sort(tests) {
    const ordered = await super.sort(tests);
    // Array.prototype.sort is stable: the unranked keep jest's order among themselves.
    return [...ordered].sort((a, b) => rank(a.path) - rank(b.path));
  }
}
