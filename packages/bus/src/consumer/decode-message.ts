import { decodeEvent, type Event } from '@corridor/contracts/events';

/** A message's value read as an event, or the reason it cannot be one (a dead letter's `error`). */
export type DecodedMessage = { ok: true; event: Event } | { ok: false; error: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The consumer's one reading of a message, also the retry's. An envelope whose id is not a UUID is
 * refused here too: it cannot be deduplicated (processed_event.event_id is a uuid), and let through
 * it would fail its whole chunk on every redelivery, blocking the partition.
 */
export function decodeMessage(value: Uint8Array | null | undefined): DecodedMessage {
  if (!value) return { ok: false, error: 'empty message (no value)' };
  let event: Event;
  try {
    event = decodeEvent(value);
  } catch (error) {
    return { ok: false, error: `not a corridor.events.v1.Event: ${reasonOf(error)}` };
  }
  if (event.id === '') return { ok: false, error: 'the event envelope has no id' };
  if (!UUID.test(event.id)) {
    return { ok: false, error: `the event id ${JSON.stringify(event.id.slice(0, 80))} is not a UUID` };
  }
  return { ok: true, event };
}
