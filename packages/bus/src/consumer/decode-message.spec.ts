import { create, toBinary } from '@bufbuild/protobuf';
import { encodeEvent, Environment, EventSchema, newEvent } from '@corridor/contracts/events';
import { decodeMessage } from './decode-message.js';

describe('decodeMessage: what the consumer applies, and why the rest becomes a dead letter', () => {
  const event = newEvent({
    businessId: 'b-1',
    environment: Environment.SANDBOX,
    payload: { case: 'businessCreated', value: { business: { id: 'b-1' } } },
  });

  it('reads an encoded event', () => {
    const decoded = decodeMessage(Buffer.from(encodeEvent(event)));
    expect(decoded.ok && decoded.event.id).toBe(event.id);
  });

  it.each([
    ['no value (a tombstone)', null, 'empty message (no value)'],
    ['zero bytes (an envelope of defaults)', Buffer.alloc(0), 'the event envelope has no id'],
    ['text', Buffer.from('this is not an event'), 'not a corridor.events.v1.Event: cant skip wire type 4'],
    ['a cut-off event', Buffer.from(encodeEvent(event)).subarray(0, 10), /^not a corridor\.events\.v1\.Event: /],
    [
      'an envelope whose id is no UUID, which processed_event could not hold',
      Buffer.from(toBinary(EventSchema, create(EventSchema, { id: 'evt_1' }))),
      'the event id "evt_1" is not a UUID',
    ],
  ])('refuses %s, naming why', (_case, value, error) => {
    const decoded = decodeMessage(value);
    expect(decoded.ok).toBe(false);
    expect(decoded.ok ? '' : decoded.error).toMatch(error);
  });
});
