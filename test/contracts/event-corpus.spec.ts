import { decodeMessage } from '@corridor/bus';
import { EVENT_TYPES, type Event } from '@corridor/contracts/events';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { renderEvent } from '../../services/notification/dist/events/render-event.js';
import { webhookBody } from '../../services/notification/dist/events/webhook-events.js';
import { customerFactsOf, type KnownCustomer } from '../../services/payments/dist/customers/customer-projection.js';

/**
 * Events already on a topic are read by this release (issue 33 point 1, decision 0049): every event
 * every release recorded (test/contracts/events/<release tag>/, deploy/release/contract-record.sh)
 * is read as this release's consumers read it: the bus's decoding, notification's webhook (the body a
 * platform receives, seed 6.2) and payments' customer projection. The other direction, this
 * release's events read by the previous release's consumers, is buf breaking's (FILE, decision 0048).
 */

const root = join(import.meta.dirname, '..', '..');
const corpus = join(root, 'test/contracts/events');

/** Every recorded event: its release folder and the file's name without extension. */
function recordings(folder: string): { release: string; file: string }[] {
  const entries = readdirSync(folder, { withFileTypes: true });
  const events = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.binpb'))
    .map((entry) => ({ release: relative(corpus, folder), file: entry.name.replace(/\.binpb$/, '') }));
  return [
    ...events,
    ...entries.filter((entry) => entry.isDirectory()).flatMap((entry) => recordings(join(folder, entry.name))),
  ];
}
const recorded = recordings(corpus);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Twin {
  event: { id: string; type: string };
  webhook: { event: string; data: Record<string, Json> } | null;
}

/** Fields this release's schema does not know, anywhere in the message: written, now lost. */
function unknownFields(value: unknown, path: string): string[] {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => unknownFields(item, `${path}[${index}]`));
  const message = value as { $typeName?: string; $unknown?: { no: number }[] };
  const own = (message.$unknown ?? []).map((field) => `${message.$typeName ?? path} field ${field.no} (at ${path})`);
  return [
    ...own,
    ...Object.entries(value)
      .filter(([key]) => key !== '$unknown')
      .flatMap(([key, inner]) => unknownFields(inner, `${path}.${key}`)),
  ];
}

/** Each leaf of a JSON value by its path, with its kind: what a platform's parser relies on. */
function leaves(value: Json, path = ''): Map<string, string> {
  if (value !== null && typeof value === 'object') {
    const inner = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    if (inner.length > 0) return new Map(inner.flatMap(([key, item]) => [...leaves(item, `${path}/${key}`)]));
  }
  return new Map([[path, value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value]]);
}

/** payments' words for a customer (KnownCustomer; an empty scope is an individual's). */
const CUSTOMER_TYPES: Record<KnownCustomer['type'], true> = { individual: true, business: true };
const STATUSES: Record<KnownCustomer['verificationStatus'], true> = {
  PENDING: true,
  PROCESSING: true,
  VERIFIED: true,
  REJECTED: true,
};
const SCOPES: Record<NonNullable<KnownCustomer['kybScope']> | '', true> = { '': true, MINIMAL: true, FULL: true };

/** What notification makes of the event, measured against the body the recording release sent. */
function notificationProblems(event: Event, twin: Twin): string[] {
  let rendered: ReturnType<typeof renderEvent>;
  try {
    rendered = renderEvent(event);
  } catch (error) {
    return [`notification cannot render it as a webhook: ${(error as Error).message}`];
  }
  if (!twin.webhook) return [];
  if (!rendered) return [`notification sends no webhook for it; the release sent ${twin.webhook.event}`];
  if (rendered.eventType !== twin.webhook.event) {
    return [`notification sends ${rendered.eventType}; the release sent ${twin.webhook.event}`];
  }
  const body = JSON.parse(webhookBody(rendered.eventType, rendered.data)) as { data: Json };
  const now = leaves(body.data);
  return [...leaves(twin.webhook.data)].flatMap(([path, kind]) => {
    const current = now.get(path);
    if (current === undefined) return [`the ${rendered.eventType} webhook lost data${path}`];
    return current === kind ? [] : [`the ${rendered.eventType} webhook's data${path} is now ${current}, was ${kind}`];
  });
}

/** What payments makes of a customer event (its customer_projection row's values). */
function paymentsProblems(event: Event): string[] {
  if (event.payload.case !== 'customerCreated' && event.payload.case !== 'customerStatusChanged') return [];
  const facts = customerFactsOf(event);
  if (!facts) return ['payments does not project this customer event'];
  return [
    ...(Object.hasOwn(CUSTOMER_TYPES, facts.customerType) ? [] : [`payments cannot hold type ${facts.customerType}`]),
    ...(Object.hasOwn(STATUSES, facts.verificationStatus) ? [] : [`payments cannot hold ${facts.verificationStatus}`]),
    ...(Object.hasOwn(SCOPES, facts.kybScope) ? [] : [`payments cannot hold KYB scope ${facts.kybScope}`]),
    ...(facts.customerId !== '' && facts.businessId === event.businessId ? [] : ['payments gets no customer']),
  ];
}

describe('every recorded release event is read by this release (test/contracts/events)', () => {
  it('has a recorded release to read', () => {
    expect(recorded.length).toBeGreaterThan(0);
  });

  it.each(recorded)('$release/$file', ({ release, file }) => {
    const base = join(corpus, release, file);
    const twin = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as Twin;
    const decoded = decodeMessage(readFileSync(`${base}.binpb`));
    if (!decoded.ok) throw new Error(`${release}/${file}.binpb: ${decoded.error}`);
    const { event } = decoded;
    const { case: payload } = event.payload;
    const problems = [
      ...(payload === undefined ? ['its payload is of no event type this release knows'] : []),
      ...(payload !== undefined && EVENT_TYPES[payload] !== event.type
        ? [`type ${event.type} but a ${payload} payload (this release's name: ${EVENT_TYPES[payload]})`]
        : []),
      ...(twin.event.id === event.id && twin.event.type === event.type ? [] : ['its JSON twin is of another event']),
      ...unknownFields(event, 'event').map((field) => `${field} is unknown to this release`),
      ...notificationProblems(event, twin),
      ...paymentsProblems(event),
    ];
    expect(problems.map((problem) => `${release}/${file}.binpb: ${problem}`)).toEqual([]);
  });
});
