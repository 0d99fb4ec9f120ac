import { fromBinary, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { sql } from '@corridor/db';
import { alreadyExists, invalidArgument, type CallContext } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { callerKeyOf, IDEMPOTENCY_METADATA, type CallerKey } from './caller-key.js';

interface StoredKey {
  fingerprint: string;
  /** null: a claim of runIdempotentOutsideTransaction whose effect has not finished. */
  response: Buffer | null;
  age_ms: number;
}

const inFlight = ({ key }: CallerKey) =>
  alreadyExists(
    'IDEMPOTENCY_REQUEST_IN_FLIGHT',
    `a request with Idempotency-Key ${JSON.stringify(key)} is still being processed; retry once it has finished`,
  );

const reused = ({ key }: CallerKey) =>
  invalidArgument(
    `Idempotency-Key ${JSON.stringify(key)} was already used for another request to this endpoint (other path parameters or body); send a new key for a new request`,
    undefined,
    'IDEMPOTENCY_KEY_REUSED',
  );

/**
 * Takes the key's advisory lock for the rest of the transaction (taken by another call: 409) and
 * reads what the key stored; a row of another request is 422.
 */
async function lockKey(tx: EntityManager, claim: CallerKey): Promise<StoredKey | undefined> {
  const [lock] = await sql<{ acquired: boolean }>(tx, 'select pg_try_advisory_xact_lock(?::bigint) as acquired', [
    claim.lockId,
  ]);
  if (!lock?.acquired) throw inFlight(claim);
  const [stored] = await sql<StoredKey>(
    tx,
    `select fingerprint, response, (extract(epoch from clock_timestamp() - created_at) * 1000)::float8 as age_ms
     from idempotency_key where business_id = ? and route = ? and key = ?`,
    [claim.businessId, claim.route, claim.key],
  );
  if (stored && stored.fingerprint !== claim.fingerprint) throw reused(claim);
  return stored;
}

function replay<Desc extends DescMessage>(context: CallContext, schema: Desc, response: Buffer): MessageShape<Desc> {
  context.responseMetadata.set(IDEMPOTENCY_METADATA.replayed, 'true');
  return fromBinary(schema, response);
}

const keyColumns = (claim: CallerKey) => [claim.businessId, claim.route, claim.key];

/**
 * Runs `effect` in one transaction with the caller's key claimed (metadata idempotency-key and
 * idempotency-fingerprint; business from business-id). Without a key: just em.transactional(effect).
 * On a replay: decodes the stored response and sets context.responseMetadata idempotent-replayed=true.
 * An effect that throws stores nothing: its transaction, key included, rolls back.
 */
export async function runIdempotent<Desc extends DescMessage, E extends EntityManager = EntityManager>(
  em: E,
  context: CallContext,
  route: string,
  schema: Desc,
  effect: (tx: E) => Promise<MessageShape<Desc>>,
): Promise<MessageShape<Desc>> {
  const claim = callerKeyOf(context, route);
  if (!claim) return em.transactional(effect);
  return em.transactional(async (tx) => {
    const stored = await lockKey(tx, claim);
    if (stored?.response) return replay(context, schema, stored.response);
    if (stored) throw inFlight(claim);
    const response = await effect(tx);
    await sql(
      tx,
      'insert into idempotency_key (business_id, route, key, fingerprint, response) values (?, ?, ?, ?, ?)',
      [...keyColumns(claim), claim.fingerprint, Buffer.from(toBinary(schema, response))],
    );
    return response;
  });
}

/**
 * For an effect that cannot run inside one transaction because it waits on the network (a webhook
 * attempt of up to 30 s would hold a pooled connection, and a few slow receivers would starve the
 * pool). The key is claimed by a committed row first, so a concurrent call is 409; the response is
 * stored once the effect has committed its own writes. An effect that throws releases the claim.
 * If the process dies between the effect and storing its answer, the claim lapses after
 * `claimTtlMs` and a retry runs the effect again (at least once): make it longer than any effect.
 */
export async function runIdempotentOutsideTransaction<Desc extends DescMessage>(
  em: EntityManager,
  context: CallContext,
  route: string,
  schema: Desc,
  effect: () => Promise<MessageShape<Desc>>,
  options: { claimTtlMs: number },
): Promise<MessageShape<Desc>> {
  const claim = callerKeyOf(context, route);
  if (!claim) return effect();
  const stored = await em.transactional(async (tx) => {
    const found = await lockKey(tx, claim);
    if (found?.response) return found.response;
    if (found && found.age_ms < options.claimTtlMs) throw inFlight(claim);
    await sql(
      tx,
      `insert into idempotency_key (business_id, route, key, fingerprint, response) values (?, ?, ?, ?, null)
       on conflict (business_id, route, key) do update set response = null, created_at = now()`,
      [...keyColumns(claim), claim.fingerprint],
    );
    return undefined;
  });
  if (stored) return replay(context, schema, stored);

  let response: MessageShape<Desc>;
  try {
    response = await effect();
  } catch (error) {
    // A failed request stores nothing. Should this delete fail as well, the claim lapses by its TTL.
    await sql(
      em,
      'delete from idempotency_key where business_id = ? and route = ? and key = ? and response is null',
      keyColumns(claim),
    ).catch(() => undefined);
    throw error;
  }
  await sql(
    em,
    'update idempotency_key set response = ? where business_id = ? and route = ? and key = ? and response is null',
    [Buffer.from(toBinary(schema, response)), ...keyColumns(claim)],
  );
  return response;
}

/** Deletes keys older than retentionMs, at most `batch` rows per call; returns how many. */
export async function pruneIdempotencyKeys(
  em: EntityManager,
  now: Date,
  retentionMs: number,
  batch = 1_000,
): Promise<number> {
  const deleted = await sql(
    em,
    `delete from idempotency_key where (business_id, route, key) in (
       select business_id, route, key from idempotency_key where created_at < ? order by created_at limit ?
     ) returning 1`,
    [new Date(now.getTime() - retentionMs), batch],
  );
  return deleted.length;
}
