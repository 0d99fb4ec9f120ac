import { integrationDatabase, type IntegrationDatabase } from '@corridor/testing';
import { paymentsDatabase } from '../src/database.js';
import { checkLedger } from '../src/ledger/index.js';

/**
 * Payments' integration suite: a describe on its own database from `integrationDatabase` (the one
 * runner, decision 0063), whose last test holds payments' invariant after everything the suite did,
 * failures included: the books balance.
 */
export function describePayments(title: string, suite: (database: IntegrationDatabase) => void): void {
  describe(title, () => {
    const database = integrationDatabase('payments', paymentsDatabase);
    suite(database);
    it('leaves the books balanced', async () => {
      expect((await checkLedger(database.em())).violations).toEqual([]);
    });
  });
}
