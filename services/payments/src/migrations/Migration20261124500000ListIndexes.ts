import { Migration } from '@corridor/db';

/**
 * Issue 17: every filter a payments list accepts, and the pairs platforms send together, is served
 * by an index ending in the list's order (created_at desc, id desc), so a page reads its rows and
 * not every row of the first filter (proven by the *-list-plan int specs). Without these, "failed
 * payouts" read every failed transaction, and "closed accounts" every account until enough matched.
 */
const LIST_INDEXES: Record<string, string> = {
  payment_transaction_status_type_idx: 'payment_transaction (business_id, status, type, created_at desc, id desc)',
  payment_transaction_status_currency_idx:
    'payment_transaction (business_id, status, currency, created_at desc, id desc)',
  payment_transaction_type_currency_idx: 'payment_transaction (business_id, type, currency, created_at desc, id desc)',
  virtual_account_status_idx: 'virtual_account (business_id, status, created_at desc, id desc)',
};

export class Migration20261124500000ListIndexes extends Migration {
  override up(): void {
    for (const [name, columns] of Object.entries(LIST_INDEXES)) this.addSql(`create index ${name} on ${columns}`);
  }

  override down(): void {
    for (const name of Object.keys(LIST_INDEXES)) this.addSql(`drop index ${name}`);
  }
}
