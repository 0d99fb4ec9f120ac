import { createLogger } from '@corridor/logging';
import { eventually, testKafka, uniqueSuffix } from '@corridor/testing';
import type { Admin } from 'kafkajs';
import { ensureTopics } from './ensure-topics.js';

const logger = createLogger('test', { level: 'silent' });

describe('ensureTopics against real Kafka', () => {
  let admin: Admin;
  const topic = `test.topics.${uniqueSuffix()}`;
  const other = `test.topics.${uniqueSuffix()}`;

  // A broker's metadata learns of new partitions from the controller a moment after CreatePartitions
  // answers: read it as a client would, until it holds the expected count (red once in npm test).
  const expectPartitions = (name: string, count: number) =>
    eventually(async () =>
      expect((await admin.fetchTopicMetadata({ topics: [name] })).topics[0]?.partitions.length).toBe(count),
    );

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
    await expectPartitions(topic, 2);
  });

  it('changes nothing when run again with the same declaration', async () => {
    const outcomes = await ensureTopics(admin, [{ name: topic, partitions: 2 }], logger);
    expect(outcomes).toEqual([{ topic, action: 'unchanged', declared: 2, partitions: 2 }]);
    await expectPartitions(topic, 2);
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
    await expectPartitions(topic, 4);
    await expectPartitions(other, 1);
  });

  it('never lowers them: a lower declaration keeps the live count, without an error', async () => {
    const outcomes = await ensureTopics(admin, [{ name: topic, partitions: 1 }], logger);
    expect(outcomes).toEqual([{ topic, action: 'kept', declared: 1, partitions: 4 }]);
    await expectPartitions(topic, 4);
  });

  it('refuses a declaration without partitions before asking Kafka anything', async () => {
    await expect(ensureTopics(admin, [{ name: topic, partitions: 0 }], logger)).rejects.toThrow(
      /partitions must be a positive integer/,
    );
  });
});
