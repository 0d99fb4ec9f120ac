import { Migration } from '@corridor/db';

/** The queue's order (adminListCustomers): ascending b-tree columns sort nulls last, as the queue does. */
const QUEUE_ORDER = 'submitted_at, created_at, id';

/**
 * GET /admin/customers, oldest submission first, filtered by nothing, verification_status,
 * business_id or both (decision 0017). The old (verification_status, submitted_at, id) lacked
 * created_at and could not serve the unfiltered queue: each combination gets an index in its order.
 */
const QUEUE_INDEXES: Record<string, string> = {
  customer_review_queue_idx: `(${QUEUE_ORDER})`,
  customer_review_queue_status_idx: `(verification_status, ${QUEUE_ORDER})`,
  customer_review_queue_business_idx: `(business_id, ${QUEUE_ORDER})`,
  customer_review_queue_business_status_idx: `(business_id, verification_status, ${QUEUE_ORDER})`,
};

export class Migration20261124500000ReviewQueueIndexes extends Migration {
  override up(): void {
    this.addSql('drop index customer_review_queue_idx');
    for (const [name, columns] of Object.entries(QUEUE_INDEXES)) {
      this.addSql(`create index ${name} on customer ${columns}`);
    }
  }

  override down(): void {
    for (const name of Object.keys(QUEUE_INDEXES)) this.addSql(`drop index ${name}`);
    this.addSql('create index customer_review_queue_idx on customer (verification_status, submitted_at, id)');
  }
}
