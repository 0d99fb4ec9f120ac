import { randomUUID } from 'node:crypto';
import { eventually, testKafka, uniqueSuffix } from '@corridor/testing';
import { Platform } from '../support/platform.js';

type Producer = ReturnType<ReturnType<typeof testKafka>['producer']>;

/** Bytes no protobuf reads: field 1 with wire type 7, which does not exist. */
const GARBAGE = Buffer.from([0x0f, 0xff, 0x00, 0x42, 0x13, 0x37]);

interface DeadLetterJson {
  id: string;
  service: string;
  topic: string;
  partition: number;
  offset: string;
  status: string;
  error: string;
  value_size: number;
  retry_count: number;
  last_retried_at: string | null;
  last_retry_error: string | null;
  key?: string | null;
  value?: string | null;
  headers?: { name: string; value: string }[];
}

/**
 * Decision 0023 through the admin listener: a message on the customer topic that is no Event is
 * kept by both of its consumers (notification and payments), listed, read back byte for byte, and a
 * retry that still cannot decode it is refused and recorded.
 */
describe('admin API: dead letters of the consumers, listed, read and retried', () => {
  // Its own platform: it writes garbage to the topics every consumer of the platform reads.
  const platform = new Platform();
  let producer: Producer | undefined;

  beforeAll(async () => {
    await platform.start();
    producer = testKafka().producer();
    await producer.connect();
  });
  afterAll(async () => {
    await producer?.disconnect();
    await platform.stop();
  });

  const connected = (): Producer => {
    if (!producer) throw new Error('the producer is not connected');
    return producer;
  };

  const adminJson = async (path: string, init?: RequestInit) => {
    const response = await platform.admin(path, init);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  /** The unresolved dead letter of `service` at the offset the message was written to. */
  const listedAt = (service: string, partition: number, offset: string) =>
    eventually(
      async () => {
        const { status, body } = await adminJson(`/admin/dead-letters/${service}?status=unresolved&per_page=100`);
        expect(status).toBe(200);
        const found = (body.data as DeadLetterJson[]).find(
          (item) => item.topic === platform.customerTopic && item.partition === partition && item.offset === offset,
        );
        if (!found) throw new Error(`${service} lists no dead letter at ${partition}/${offset} yet`);
        return found;
      },
      30_000,
      250,
    );

  it('keeps the garbage in both consumers, answers its bytes, and records a retry that cannot decode it', async () => {
    const key = `dead-letter-e2e-${uniqueSuffix()}`;
    const [written] = await connected().send({
      topic: platform.customerTopic,
      messages: [{ key, value: GARBAGE, headers: { 'x-e2e': 'marker' } }],
    });
    if (!written?.baseOffset) throw new Error('kafka answered no offset');
    const { partition, baseOffset: offset } = written;

    const listed = await listedAt('notification', partition, offset);
    expect(listed).toMatchObject({
      service: 'notification',
      status: 'unresolved',
      value_size: GARBAGE.length,
      retry_count: 0,
      last_retried_at: null,
      last_retry_error: null,
    });
    expect(listed.error).toMatch(/^not a corridor\.events\.v1\.Event: /);
    expect(listed).not.toHaveProperty('value');
    // payments consumes the customer topic too, into a table of its own.
    expect(await listedAt('payments', partition, offset)).toMatchObject({ service: 'payments', status: 'unresolved' });

    const path = `/admin/dead-letters/notification/${listed.id}`;
    const read = await adminJson(path);
    expect(read.status).toBe(200);
    const stored = read.body as unknown as DeadLetterJson;
    expect(Buffer.from(String(stored.value), 'base64')).toEqual(GARBAGE);
    expect(Buffer.from(String(stored.key), 'base64').toString()).toBe(key);
    expect(stored.headers).toContainEqual({ name: 'x-e2e', value: Buffer.from('marker').toString('base64') });

    const retried = await adminJson(`${path}/retry`, { method: 'POST' });
    expect(retried).toMatchObject({ status: 400, body: { status: false, code: 'DEAD_LETTER_UNDECODABLE' } });
    expect(retried.body.message).toMatch(
      new RegExp(`^dead letter ${listed.id} still cannot be decoded: not a corridor\\.events\\.v1\\.Event: `),
    );

    const after = await adminJson(path);
    expect(after.body).toMatchObject({ status: 'unresolved', retry_count: 1, resolved_at: null });
    expect(String(after.body.last_retry_error)).toMatch(/^not a corridor\.events\.v1\.Event: /);
    expect(Date.parse(String(after.body.last_retried_at))).not.toBeNaN();
    // payments' copy is untouched by notification's retry.
    expect(await listedAt('payments', partition, offset)).toMatchObject({ retry_count: 0 });
  });

  it('answers 404 for a dead letter no service has, and for a service that keeps none', async () => {
    const unknown = randomUUID();
    expect(await adminJson(`/admin/dead-letters/notification/${unknown}`)).toMatchObject({
      status: 404,
      body: { status: false, code: 'DEAD_LETTER_NOT_FOUND' },
    });
    expect(await adminJson(`/admin/dead-letters/payments/${unknown}/retry`, { method: 'POST' })).toMatchObject({
      status: 404,
      body: { status: false, code: 'DEAD_LETTER_NOT_FOUND' },
    });
    const identity = await adminJson('/admin/dead-letters/identity');
    expect(identity).toMatchObject({ status: 404, body: { status: false, code: 'SERVICE_NOT_FOUND' } });
    expect(identity.body.message).toMatch(/notification and payments/);
  });
});
