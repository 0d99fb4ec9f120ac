import { changeAfterAttempt, isDeliveryStatus } from './delivery.js';

describe('what an answered attempt does to its delivery (decision 0010)', () => {
  const next = new Date('2026-11-21T10:01:00.000Z');

  it('a success ends it succeeded, whatever made it, and clears the schedule', () => {
    for (const trigger of ['scheduled', 'replay', 'mock'] as const) {
      expect(changeAfterAttempt(trigger, true, next)).toEqual({
        endsAs: 'succeeded',
        spendsScheduled: trigger === 'scheduled',
        nextAttemptAt: null,
        replayDone: trigger === 'replay',
      });
    }
  });

  it('seed 6.4 rule 4: a scheduled failure reschedules, and after the last ends it failed', () => {
    expect(changeAfterAttempt('scheduled', false, next)).toEqual({
      endsAs: undefined,
      spendsScheduled: true,
      nextAttemptAt: next,
      replayDone: false,
    });
    expect(changeAfterAttempt('scheduled', false, null)).toEqual({
      endsAs: 'failed',
      spendsScheduled: true,
      nextAttemptAt: null,
      replayDone: false,
    });
  });

  it('a mock’s one failure ends it failed; a replay’s failure leaves it as it was, the replay done', () => {
    expect(changeAfterAttempt('mock', false, null)).toEqual({
      endsAs: 'failed',
      spendsScheduled: false,
      nextAttemptAt: undefined,
      replayDone: false,
    });
    expect(changeAfterAttempt('replay', false, null)).toEqual({
      endsAs: undefined,
      spendsScheduled: false,
      nextAttemptAt: undefined,
      replayDone: true,
    });
  });

  it('knows the three statuses a delivery can be in', () => {
    expect(['pending', 'succeeded', 'failed', 'PENDING', ''].map(isDeliveryStatus)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
