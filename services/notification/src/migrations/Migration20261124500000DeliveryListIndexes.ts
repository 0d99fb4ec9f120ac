import { Migration } from '@corridor/db';

/**
 * GET /webhook/deliveries filters by status, event or both, newest first (decision 0017): each
 * combination gets an index ending in the list's order, so page 1 reads its 15 rows however many
 * deliveries a business has. The date range alone is served by webhook_delivery_list.
 */
const LIST_INDEXES: Record<string, string> = {
  webhook_delivery_status_list: '(business_id, status, created_at desc, id desc)',
  webhook_delivery_event_list: '(business_id, event_type, created_at desc, id desc)',
  webhook_delivery_status_event_list: '(business_id, status, event_type, created_at desc, id desc)',
};

export class Migration20261124500000DeliveryListIndexes extends Migration {
  override up(): void {
    for (const [name, columns] of Object.entries(LIST_INDEXES)) {
      this.addSql(`create index ${name} on webhook_delivery ${columns}`);
    }
  }

  override down(): void {
    for (const name of Object.keys(LIST_INDEXES)) this.addSql(`drop index ${name}`);
  }
}
