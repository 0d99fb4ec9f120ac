import { createLogger } from '@corridor/logging';
import { testKafka, uniqueSuffix } from '@corridor/testing';
import type { Admin } from 'kafkajs';
import { ensureTopics } from './ensure-topics.js';

const logger = createLogger('test', { level: 'silent' });

describe('ensureTopics against real Kafka', () => {
  let admin: Admin;
  const topic = `test.topics.${uniqueSuffix()}`;
  const other = `test.topics.${uniqueSuffix()}`;

  const partitionsOf = async (name: string) =>
    (await admin.fetchTopicMetadata({ topics: [name] })).topics[0]?.partitions.length;

  beforeAll(async () => {
    admin = testKafka().admin();
    await admin.connect();
  });

  afterAll(async () => {
    await admin.deleteTopics({ topics: [topic, other] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('creates a missing topic with its declared partitions', async () => {
    const outcomes = await ensureTopics(admin, [{ name: topic, partitions: 2 }], logger);
    expect(outcomes).toEqual([{ topic, action: 'created', declared: 2, partitions: 2 }]);
    expect(await partitionsOf(topic)).toBe(2);
  });

  it('changes nothing when run again with the same declaration', async () => {
    const outcomes = await ensureTopics(admin, [{ name: topic, partitions: 2 }], logger);
    expect(outcomes).toEqual([{ topic, action: 'unchanged', declared: 2, partitions: 2 }]);
    expect(await partitionsOf(topic)).toBe(2);
  });

  it('raises the partitions to a higher declaration, and creates a new topic beside it', async () => {
    const outcomes = await ensureTopics(
      admin,
      [
        { name: topic, partitions: 4 },
        { name: other, partitions: 1 },
      ],
      logger,
    );
    expect(outcomes).toEqual([
      { topic, action: 'raised', declared: 4, partitions: 4 },
      { topic: other, action: 'created', declared: 1, partitions: 1 },
    ]);
    expect(await partitionsOf(topic)).toBe(4);
    expect(await partitionsOf(other)).toBe(1);
  });

  it('never lowers them: a lower declaration keeps the live count, without an error', async () => {
    const outcomes = await ensureTopics(admin, [{ name: topic, partitions: 1 }], logger);
    expect(outcomes).toEqual([{ topic, action: 'kept', declared: 1, partitions: 4 }]);
    expect(await partitionsOf(topic)).toBe(4);
  });

  it('refuses a declaration without partitions before asking Kafka anything', async () => {
    await expect(ensureTopics(admin, [{ name: topic, partitions: 0 }], logger)).rejects.toThrow(
      /partitions must be a positive integer/,
    );
  });
});
