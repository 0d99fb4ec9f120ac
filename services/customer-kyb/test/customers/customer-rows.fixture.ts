import { query } from '@corridor/testing';

/**
 * The list specs' customers, by bulk SQL: `count` customers of one business, customer n created n seconds before `now`: even n individuals
 * (id_number ID-n), odd n businesses (registration_number RC-n); a tenth PENDING, 1 in 50 REJECTED.
 */
export async function insertCustomers(url: string, businessId: string, count: number, now: Date): Promise<void> {
  await query(
    url,
    `insert into customer (id, business_id, type, kyb_scope, verification_status, fields, created_at, updated_at)
     select gen_random_uuid(), $1::uuid,
       case when n % 2 = 0 then 'individual' else 'business' end,
       case when n % 2 = 0 then null else 'FULL' end,
       case when n % 10 = 0 then 'PENDING' when n % 50 = 1 then 'REJECTED' else 'VERIFIED' end,
       case when n % 2 = 0
         then jsonb_build_object('first_name', 'Ada', 'last_name', 'Obi', 'country', 'NG',
                                 'email', 'customer-' || n || '@example.com', 'id_number', 'ID-' || n)
         else jsonb_build_object('business_name', 'Acme ' || n, 'registration_number', 'RC-' || n,
                                 'incorporation_country', 'NG', 'country', 'NG', 'email', 'customer-' || n || '@example.com')
       end,
       $2::timestamptz - make_interval(secs => n), $2::timestamptz
     from generate_series(1, $3::int) as n`,
    [businessId, now.toISOString(), count],
  );
}
