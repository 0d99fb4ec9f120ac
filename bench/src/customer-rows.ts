import { query } from '../../packages/testing/dist/index.js';

/** Each status in turn (bench:customers): a quarter of the customers in each. */
export const EVEN_STATUSES = ['PENDING', 'PROCESSING', 'VERIFIED', 'REJECTED'] as const;

export interface CustomerRows {
  businessId: string;
  /** Customer n (first ≤ n < first + count) has email customer-<n>@example.com: distinct across calls. */
  first: number;
  count: number;
  /** Customer n gets statuses[n % length]; repeat a status to weigh it. */
  statuses?: readonly string[];
  /** Customer first + k was created (k + 1) × spacingSeconds before now: a call's newest is its first. */
  spacingSeconds?: number;
}

/**
 * Customers written in one statement, as a long-lived platform holds them: half individuals (email,
 * id_number), half businesses (registration_number RC-<n>, FULL); submitted unless PENDING.
 */
export async function insertCustomers(url: string, rows: CustomerRows): Promise<void> {
  await query(
    url,
    `insert into customer (id, business_id, type, kyb_scope, verification_status, fields, created_at, updated_at,
       submitted_at)
     select gen_random_uuid(), $1::uuid,
       case when n % 2 = 0 then 'individual' else 'business' end,
       case when n % 2 = 0 then null else 'FULL' end,
       state.status,
       case when n % 2 = 0
         then jsonb_build_object('first_name', 'Ada', 'last_name', 'Obi', 'country', 'NG',
                                 'email', 'customer-' || n || '@example.com', 'id_number', 'ID-' || (n - 1))
         else jsonb_build_object('business_name', 'Acme ' || n, 'registration_number', 'RC-' || n,
                                 'incorporation_country', 'NG', 'country', 'NG', 'email', 'customer-' || n || '@example.com')
       end,
       at.created, at.created,
       case when state.status = 'PENDING' then null else at.created + interval '1 hour' end
     from generate_series($2::int, $3::int) as n,
       lateral (select now() - make_interval(secs => (n - $2::int + 1) * $5::int) as created) as at,
       lateral (select ($4::text[])[1 + n % cardinality($4::text[])] as status) as state`,
    [
      rows.businessId,
      rows.first,
      rows.first + rows.count - 1,
      rows.statuses ?? EVEN_STATUSES,
      rows.spacingSeconds ?? 1,
    ],
  );
}
