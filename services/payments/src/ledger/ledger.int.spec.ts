import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { applyTransfers, checkLedger, LedgerAccounts, LedgerError, walletAccount, walletBalances } from './index.js';
import { describePayments } from '../../test/payments-database.js';

describePayments('the ledger (real PostgreSQL)', (database) => {
  let accounts: LedgerAccounts;

  beforeAll(async () => {
    accounts = new LedgerAccounts(() => database.em(), 4);
  });

  /** A fresh funded-or-empty wallet and its funding account. */
  async function walletWithFunding(currency = 'NGN') {
    const businessId = randomUUID();
    const wallet = walletAccount(businessId, currency);
    const funding = accounts.system('sandbox_funding', currency, businessId);
    const ids = await accounts.resolve([wallet, funding]);
    return { businessId, wallet: ids.get(wallet.code) ?? '', funding: ids.get(funding.code) ?? '' };
  }

  const posted = (id: string, debit: string, credit: string, amount: bigint, currency = 'NGN') => ({
    id,
    phase: 'posted' as const,
    debitAccountId: debit,
    creditAccountId: credit,
    currency,
    amount,
  });

  const balanceOf = async (businessId: string, currency = 'NGN') =>
    (await walletBalances(database.em(), businessId)).get(currency);

  it('a posted transfer moves the amount and records each side with its balance after and the account version', async () => {
    const { businessId, wallet, funding } = await walletWithFunding();
    const id = `test:${randomUUID()}`;
    expect(
      await database.em().transactional((tx) => applyTransfers(tx, [posted(id, funding, wallet, 5_000n)])),
    ).toEqual([{ id, outcome: 'created' }]);
    expect(await balanceOf(businessId)).toMatchObject({ ledger: 5_000n, pending: 0n, available: 5_000n });
    const entries = await query<{
      side: string;
      posted_credits_after: string;
      posted_debits_after: string;
      account_version: string;
    }>(
      database.url,
      'select side, posted_credits_after, posted_debits_after, account_version from ledger_entry where transfer_id = $1 order by side',
      [id],
    );
    expect(entries).toEqual([
      { side: 'credit', posted_credits_after: '5000', posted_debits_after: '0', account_version: '1' },
      { side: 'debit', posted_credits_after: '0', posted_debits_after: '5000', account_version: expect.any(String) },
    ]);
  });

  it('a repeat of the same transfer is a no-op; the same id with another amount or account is an error', async () => {
    const { businessId, wallet, funding } = await walletWithFunding();
    const id = `test:${randomUUID()}`;
    await database.em().transactional((tx) => applyTransfers(tx, [posted(id, funding, wallet, 1_000n)]));
    expect(
      await database.em().transactional((tx) => applyTransfers(tx, [posted(id, funding, wallet, 1_000n)])),
    ).toEqual([{ id, outcome: 'duplicate' }]);
    expect((await balanceOf(businessId))?.ledger).toBe(1_000n);
    const conflict = await database
      .em()
      .transactional((tx) => applyTransfers(tx, [posted(id, funding, wallet, 2_000n)]))
      .catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(LedgerError);
    expect(conflict).toMatchObject({ kind: 'conflicting_repeat' });
    expect((await balanceOf(businessId))?.ledger).toBe(1_000n);
  });

  it('never takes a wallet below zero, and linked transfers commit together or not at all', async () => {
    const { businessId, wallet, funding } = await walletWithFunding();
    await database
      .em()
      .transactional((tx) => applyTransfers(tx, [posted(`test:${randomUUID()}`, funding, wallet, 1_000n)]));
    const fees = (await accounts.resolve([accounts.system('fees', 'NGN', businessId)])).values().next().value ?? '';
    // 600 + 500 > 1,000: the second leg fails, so the first, already applied in the statement, is undone too.
    const error = await database
      .em()
      .transactional((tx) =>
        applyTransfers(tx, [
          posted(`test:${randomUUID()}`, wallet, funding, 600n),
          posted(`test:${randomUUID()}`, wallet, fees, 500n),
        ]),
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'insufficient_funds', account: `wallet:${businessId}:NGN` });
    expect(await balanceOf(businessId)).toMatchObject({ ledger: 1_000n, available: 1_000n });
    const [count] = await query<{ n: string }>(
      database.url,
      'select count(*) as n from ledger_transfer where debit_account_id = $1',
      [wallet],
    );
    expect(count?.n).toBe('0');
  });

  it('two-phase: pending reserves (available drops, ledger stays), post moves it, void releases it, once each', async () => {
    const { businessId, wallet, funding } = await walletWithFunding();
    await database
      .em()
      .transactional((tx) => applyTransfers(tx, [posted(`test:${randomUUID()}`, funding, wallet, 10_000n)]));
    const settlement =
      (await accounts.resolve([accounts.system('settlement', 'NGN', businessId, 'sandbox')])).values().next().value ??
      '';
    const reserve = (id: string, amount: bigint) => ({
      ...posted(id, wallet, settlement, amount),
      phase: 'pending' as const,
    });
    const first = `test:${randomUUID()}`;
    const second = `test:${randomUUID()}`;
    await database.em().transactional((tx) => applyTransfers(tx, [reserve(first, 3_000n), reserve(second, 4_000n)]));
    expect(await balanceOf(businessId)).toMatchObject({ ledger: 10_000n, pending: 7_000n, available: 3_000n });
    // A third reservation beyond what is available is refused: pending debits count against the balance.
    await expect(
      database.em().transactional((tx) => applyTransfers(tx, [reserve(`test:${randomUUID()}`, 3_001n)])),
    ).rejects.toMatchObject({ kind: 'insufficient_funds' });

    await database
      .em()
      .transactional((tx) => applyTransfers(tx, [{ id: `${first}:post`, phase: 'post_pending', pendingId: first }]));
    expect(await balanceOf(businessId)).toMatchObject({ ledger: 7_000n, pending: 4_000n, available: 3_000n });
    await database
      .em()
      .transactional((tx) => applyTransfers(tx, [{ id: `${second}:void`, phase: 'void_pending', pendingId: second }]));
    expect(await balanceOf(businessId)).toMatchObject({ ledger: 7_000n, pending: 0n, available: 7_000n });

    // Resolved once: voiding a posted one, or posting a voided one, is refused; a repeat is a no-op.
    await expect(
      database
        .em()
        .transactional((tx) => applyTransfers(tx, [{ id: `${first}:void`, phase: 'void_pending', pendingId: first }])),
    ).rejects.toMatchObject({ kind: 'already_resolved' });
    expect(
      await database
        .em()
        .transactional((tx) =>
          applyTransfers(tx, [{ id: `${second}:void`, phase: 'void_pending', pendingId: second }]),
        ),
    ).toEqual([{ id: `${second}:void`, outcome: 'duplicate' }]);
    await expect(
      database
        .em()
        .transactional((tx) =>
          applyTransfers(tx, [{ id: `test:${randomUUID()}`, phase: 'post_pending', pendingId: 'nothing' }]),
        ),
    ).rejects.toMatchObject({ kind: 'no_pending_transfer' });
  });

  it('refuses a transfer between accounts of another currency', async () => {
    const { wallet, funding } = await walletWithFunding('NGN');
    await expect(
      database
        .em()
        .transactional((tx) => applyTransfers(tx, [posted(`test:${randomUUID()}`, funding, wallet, 1n, 'USD')])),
    ).rejects.toMatchObject({ kind: 'account_mismatch' });
  });

  it('concurrent debits of one wallet: exactly as many succeed as it can afford', async () => {
    const { businessId, wallet, funding } = await walletWithFunding();
    await database
      .em()
      .transactional((tx) => applyTransfers(tx, [posted(`test:${randomUUID()}`, funding, wallet, 10_000n)]));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        database
          .em()
          .transactional((tx) => applyTransfers(tx, [posted(`test:${randomUUID()}`, wallet, funding, 500n)])),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(20);
    expect(await balanceOf(businessId)).toMatchObject({ ledger: 0n, available: 0n });
  });

  it('the invariant check finds a balance edited by hand, a broken entry chain and a negative wallet', async () => {
    expect((await checkLedger(database.em())).ok).toBe(true);
    const { businessId, wallet, funding } = await walletWithFunding();
    await database
      .em()
      .transactional((tx) => applyTransfers(tx, [posted(`test:${randomUUID()}`, funding, wallet, 100n)]));
    // Tampering needs the overdraft guard off for a moment; the check must see all three breaks.
    await query(database.url, 'alter table ledger_account drop constraint ledger_account_no_overdraft');
    await query(database.url, 'update ledger_account set posted_debits = posted_debits + 500 where id = $1', [wallet]);
    const check = await checkLedger(database.em());
    expect(check.ok).toBe(false);
    expect(check.violations.map((violation) => violation.rule).sort()).toEqual([
      'balance_mismatch',
      'currency_unbalanced',
      'entry_chain_broken',
      'wallet_negative',
    ]);
    expect(check.violations.find((violation) => violation.rule === 'wallet_negative')).toMatchObject({
      currency: 'NGN',
      account: `wallet:${businessId}:NGN`,
    });
    await query(database.url, 'update ledger_account set posted_debits = posted_debits - 500 where id = $1', [wallet]);
    await query(
      database.url,
      'alter table ledger_account add constraint ledger_account_no_overdraft check (not no_overdraft or posted_debits + pending_debits <= posted_credits)',
    );
    expect((await checkLedger(database.em())).ok).toBe(true);
  });
});
