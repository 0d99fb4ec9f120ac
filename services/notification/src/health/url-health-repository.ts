import { dateOf, sql } from '@corridor/db';
import type { EntityManager } from '@mikro-orm/core';
import type { DisabledReason, UrlHealth, UrlKind } from './url-health.js';

type Row = Record<string, unknown>;

/** One URL of a registration: the key of its health. */
export interface UrlKey {
  endpointId: string;
  urlKind: UrlKind;
}

/** A URL's health with what its notice names: the registration's business and the URL itself. */
export interface LockedUrlHealth extends UrlKey {
  businessId: string;
  url: string;
  health: UrlHealth;
}

const dateOrNull = (value: unknown): Date | null => (value === null || value === undefined ? null : dateOf(value));

function healthOf(row: Row): UrlHealth {
  return {
    failingSince: dateOrNull(row.failing_since),
    consecutiveFailures: Number(row.consecutive_failures),
    disabledAt: dateOrNull(row.disabled_at),
    disabledReason: (row.disabled_reason ?? null) as DisabledReason | null,
  };
}

const keysJson = (keys: readonly UrlKey[]) =>
  JSON.stringify(keys.map(({ endpointId, urlKind }) => ({ endpoint_id: endpointId, url_kind: urlKind })));

/**
 * Every statement on webhook_url_health, and the holding and releasing of a disabled URL's deliveries
 * (decision 0068), in the entity manager's transaction if it has one.
 */
export class UrlHealthRepository {
  constructor(private readonly em: EntityManager) {}

  private rows(statement: string, params: unknown[] = []): Promise<Row[]> {
    return sql<Row>(this.em, statement, params);
  }

  /** The registration's URLs with a health row; a URL without one is healthy. */
  async of(endpointId: string): Promise<Map<UrlKind, UrlHealth>> {
    const rows = await this.rows(`select * from webhook_url_health where endpoint_id = ?`, [endpointId]);
    return new Map(rows.map((row) => [row.url_kind as UrlKind, healthOf(row)]));
  }

  /** A 2xx ends each URL's run: one statement, touching only URLs that have one. */
  async endRuns(keys: readonly UrlKey[]): Promise<void> {
    if (keys.length === 0) return;
    await this.rows(
      `update webhook_url_health h set failing_since = null, consecutive_failures = 0
       from json_to_recordset(?::json) as k(endpoint_id uuid, url_kind text)
       where h.endpoint_id = k.endpoint_id and h.url_kind = k.url_kind and h.consecutive_failures > 0`,
      [keysJson(keys)],
    );
  }

  /**
   * The URLs' health rows, made if missing, locked until the transaction ends and taken in key order
   * (two workers judging the same URLs queue, and never deadlock), with their registration's business
   * and URL.
   */
  async lock(keys: readonly UrlKey[]): Promise<LockedUrlHealth[]> {
    const sorted = [...keys].sort((a, b) =>
      a.endpointId === b.endpointId ? a.urlKind.localeCompare(b.urlKind) : a.endpointId.localeCompare(b.endpointId),
    );
    await this.rows(
      `insert into webhook_url_health (endpoint_id, url_kind)
       select endpoint_id, url_kind from json_to_recordset(?::json) as k(endpoint_id uuid, url_kind text)
       on conflict do nothing`,
      [keysJson(sorted)],
    );
    const rows = await this.rows(
      `select h.*, e.business_id,
         case h.url_kind when 'payout_url' then e.payout_url when 'kyc_url' then coalesce(e.kyc_url, e.collection_url)
           else e.collection_url end as url
       from webhook_url_health h join webhook_endpoint e on e.id = h.endpoint_id
       where (h.endpoint_id, h.url_kind) in (select endpoint_id, url_kind
         from json_to_recordset(?::json) as k(endpoint_id uuid, url_kind text))
       order by h.endpoint_id, h.url_kind
       for update of h`,
      [keysJson(sorted)],
    );
    return rows.map((row) => ({
      endpointId: String(row.endpoint_id),
      urlKind: row.url_kind as UrlKind,
      businessId: String(row.business_id),
      url: String(row.url),
      health: healthOf(row),
    }));
  }

  async save(key: UrlKey, health: UrlHealth): Promise<void> {
    await this.rows(
      `update webhook_url_health set failing_since = ?, consecutive_failures = ?, disabled_at = ?, disabled_reason = ?
       where endpoint_id = ? and url_kind = ?`,
      [
        health.failingSince,
        health.consecutiveFailures,
        health.disabledAt,
        health.disabledReason,
        key.endpointId,
        key.urlKind,
      ],
    );
  }

  /**
   * Holds the URL's pending deliveries: no attempt is due until it is enabled, and each says why. A
   * delivery in flight is left to its answer, which is judged (and held) in turn.
   */
  async hold(key: UrlKey, now: Date): Promise<number> {
    const rows = await this.rows(
      `update webhook_delivery set next_attempt_at = null, skipped_reason = 'endpoint_disabled', updated_at = ?
       where endpoint_id = ? and destination = ? and status = 'pending' and next_attempt_at is not null
         and (lease_until is null or lease_until < ?)
       returning id`,
      [now, key.endpointId, key.urlKind, now],
    );
    return rows.length;
  }

  /**
   * Enables the URL and forgets its run (a new start, or a new receiver) and releases what it held: with `replay`, every held delivery
   * is due now, in sequence order (a microsecond apart, the order the worker claims them in); without,
   * each ends failed, never attempted, its reason kept. Returns whether it was disabled, and how many
   * deliveries were queued.
   */
  async enable(key: UrlKey, replay: boolean, now: Date): Promise<{ wasDisabled: boolean; queued: number }> {
    const enabled = await this.rows(
      `with before as (
         select endpoint_id, url_kind, disabled_at from webhook_url_health
         where endpoint_id = ? and url_kind = ? for update
       )
       update webhook_url_health h set disabled_at = null, disabled_reason = null, failing_since = null,
         consecutive_failures = 0
       from before b where h.endpoint_id = b.endpoint_id and h.url_kind = b.url_kind
       returning b.disabled_at as was`,
      [key.endpointId, key.urlKind],
    );
    const released = replay
      ? await this.rows(
          `with held as (
             select id, row_number() over (order by sequence, created_at, id) as position from webhook_delivery
             where endpoint_id = ? and destination = ? and status = 'pending' and skipped_reason = 'endpoint_disabled'
           )
           update webhook_delivery d set skipped_reason = null,
             next_attempt_at = ?::timestamptz + held.position * interval '1 microsecond', updated_at = ?
           from held where d.id = held.id
           returning d.id`,
          [key.endpointId, key.urlKind, now, now],
        )
      : await this.rows(
          `update webhook_delivery set status = 'failed', completed_at = ?, updated_at = ?
           where endpoint_id = ? and destination = ? and status = 'pending' and skipped_reason = 'endpoint_disabled'
           returning id`,
          [now, now, key.endpointId, key.urlKind],
        );
    return { wasDisabled: enabled[0]?.was != null, queued: replay ? released.length : 0 };
  }
}
