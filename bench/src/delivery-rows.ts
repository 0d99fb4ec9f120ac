import { query } from '../../packages/testing/dist/index.js';

/**
 * A delivery log as months of traffic leave it, written straight into notification's tables. Events
 * in turn over a cycle of 17 (coprime with the 100 of the statuses, so every pair occurs): collections
 * and payouts common, refunds rare. `refund` sits at position 1 so that delivery 1, a failed one, is
 * a failed refund: even a business of 100 deliveries has one.
 */
const EVENT_CYCLE = [
  'collection.successful',
  'refund',
  'payout.successful',
  'collection.successful',
  'customer.status_changed',
  'payout.successful',
  'collection.successful',
  'payout.pending',
  'collection.successful',
  'refund_initiated',
  'payout.processing',
  'collection.successful',
  'customer.status_changed',
  'payout.successful',
  'collection.failed',
  'collection.successful',
  'payout.failed',
] as const;

/** Where each event goes for a registration without kyc_url (decision 0009). */
const destinationOf = (event: string) => (event.startsWith('payout.') ? 'payout_url' : 'collection_url');

/** Failed deliveries used up every scheduled attempt (decision 0010's schedule has 8). */
const FAILED_ATTEMPTS = 8;

export interface DeliveryRows {
  businessId: string;
  /** The business's registration, made through POST /webhook. */
  endpointId: string;
  count: number;
  /** Delivery n (1…count) was created n × spacingSeconds before now: keep count × spacing under 30 days' retention. */
  spacingSeconds: number;
}

/**
 * `count` deliveries: 2 % failed, 1 % pending (retry due in 30 days, so the worker leaves them be),
 * the rest succeeded, a sixth of them on a second attempt and 1 in 60 on a third.
 */
export async function insertDeliveries(url: string, rows: DeliveryRows): Promise<void> {
  await query(
    url,
    `insert into webhook_delivery (id, business_id, endpoint_id, event_id, event_type, destination, body, status,
       attempt_count, scheduled_attempts, next_attempt_at, event_occurred_at, created_at, updated_at, completed_at)
     select gen_random_uuid(), $1::uuid, $2::uuid, gen_random_uuid(), kind.event_type, kind.destination,
       json_build_object('event', kind.event_type, 'data', json_build_object(
         'id', gen_random_uuid(), 'business_id', $1::uuid, 'reference', 'REF-' || n, 'amount', 10000 + n % 90000,
         'fee', 100, 'currency', 'NGN', 'status', 'successful', 'narration', 'Bench transfer ' || n,
         'sender_name', 'Bench Payer', 'account_number', lpad((n % 10000000000)::text, 10, '0'),
         'created_at', at.created))::text,
       state.status, tries.attempts, tries.attempts,
       case when state.status = 'pending' then now() + interval '30 days' end,
       at.created, at.created, at.ended,
       case when state.status = 'pending' then null else at.ended end
     from generate_series(1, $3::int) as n,
       lateral (select ($5::text[])[1 + n % cardinality($5::text[])] as event_type,
                       ($6::text[])[1 + n % cardinality($6::text[])] as destination) as kind,
       lateral (select case when n % 100 < 2 then 'failed' when n % 100 = 2 then 'pending' else 'succeeded' end
                  as status) as state,
       lateral (select case state.status when 'failed' then $7::int when 'pending' then 1
                  else case when n % 6 = 1 then 2 when n % 60 = 3 then 3 else 1 end end as attempts) as tries,
       lateral (select now() - make_interval(secs => n * $4::int) as created,
                       now() - make_interval(secs => n * $4::int) + make_interval(mins => 5 * (tries.attempts - 1))
                  as ended) as at`,
    [
      rows.businessId,
      rows.endpointId,
      rows.count,
      rows.spacingSeconds,
      EVENT_CYCLE,
      EVENT_CYCLE.map(destinationOf),
      FAILED_ATTEMPTS,
    ],
  );
}

/** One attempt row per attempt the business's deliveries counted, five minutes apart; only a success's last one succeeded. */
export async function insertAttempts(url: string, businessId: string): Promise<void> {
  await query(
    url,
    `insert into webhook_attempt (id, delivery_id, number, trigger, started_at, duration_ms, outcome, status_code,
       error_class, error_message, response_body)
     select gen_random_uuid(), d.id, attempt.number, 'scheduled', d.created_at + make_interval(mins => 5 * (attempt.number - 1)),
       40 + (attempt.number * 37) % 400, verdict.outcome,
       case when verdict.outcome = 'succeeded' then 200 else 503 end,
       case when verdict.outcome = 'succeeded' then null else 'http_status' end,
       case when verdict.outcome = 'succeeded' then null else 'the endpoint answered 503' end,
       case when verdict.outcome = 'succeeded' then '{"received":true}' else 'Service Unavailable' end
     from webhook_delivery d,
       generate_series(1, d.attempt_count) as attempt(number),
       lateral (select case when d.status = 'succeeded' and attempt.number = d.attempt_count then 'succeeded'
                  else 'failed' end as outcome) as verdict
     where d.business_id = $1::uuid`,
    [businessId],
  );
}
