import { SANDBOX_MAGIC, SandboxCollectionRail } from './collection-rail.js';

describe('the sandbox collection rail’s magic amounts (decision 0014)', () => {
  const rail = new SandboxCollectionRail({ settleMs: 1_000, delayMs: 10_000 });
  const now = new Date('2026-11-24T10:00:00.000Z');

  it('an amount ending in 091 minor units is refused by the paying bank; neighbours are received', () => {
    expect(SANDBOX_MAGIC.rejectedByBank).toBe(91n);
    for (const amount of [91n, 1_091n, 250_091n]) expect(rail.receive(amount).failure).toBe('rejected_by_bank');
    for (const amount of [90n, 92n, 1_000n, 1_910n, 100_000n]) expect(rail.receive(amount).failure).toBeUndefined();
  });

  it('every receipt and refund gets its own rail reference', () => {
    const references = new Set<string>();
    for (let i = 0; i < 50; i++) {
      references.add(rail.receive(10_000n).reference);
      references.add(rail.refund(10_000n, now).reference);
    }
    expect(references.size).toBe(100);
    for (const reference of references) expect(reference).toMatch(/^SBX[0-9A-F]{12}$/);
  });

  it('a refund is answered after the settle time; a collection ending in 092 after the delay', () => {
    expect(rail.refund(10_000n, now).decidedAt).toEqual(new Date(now.getTime() + 1_000));
    expect(rail.refund(10_092n, now).decidedAt).toEqual(new Date(now.getTime() + 10_000));
    expect(rail.refund(10_093n, now).decidedAt).toEqual(new Date(now.getTime() + 1_000));
  });

  it('seed 3.5: a refund of a collection ending in 093 is declined by the payer’s bank; others succeed', () => {
    expect(rail.refundOutcome(10_093n)).toEqual({ failureReason: 'declined_by_bank' });
    for (const amount of [10_000n, 10_091n, 10_092n, 10_094n, 93_000n]) expect(rail.refundOutcome(amount)).toEqual({});
  });
});
