import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromBinary } from '@bufbuild/protobuf';
import { EventSchema, type Event } from '@corridor/contracts/corridor/events/v1/event_pb';
import { Kafka, logLevel, type Consumer, type IHeaders } from 'kafkajs';
import { TEST_RUN_ENV } from './postgres.js';
import { eventually } from './waiting.js';

export const KAFKA_BROKERS = (process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');

export function testKafka(clientId = 'corridor-test', brokers: string[] = KAFKA_BROKERS): Kafka {
  return new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING });
}

export const uniqueSuffix = () => randomBytes(4).toString('hex');

/**
 * Creates topics for one test run (the broker does not auto-create) and returns once every partition
 * has a leader. kafkajs's own `waitForLeaders` gives up with UNKNOWN_TOPIC_OR_PARTITION when a busy
 * broker has not yet published the new topic's metadata (seen in CI), so this waits for it instead.
 */
export async function createTopics(
  names: string[],
  partitions = 3,
  { brokers = KAFKA_BROKERS, timeoutMs = 60_000 }: { brokers?: string[]; timeoutMs?: number } = {},
): Promise<void> {
  const admin = testKafka('corridor-test', brokers).admin();
  await admin.connect();
  try {
    await admin.createTopics({
      waitForLeaders: false,
      topics: names.map((topic) => ({ topic, numPartitions: partitions })),
    });
    recordRunTopics(names, brokers);
    await eventually(
      async () => {
        const { topics } = await admin.fetchTopicMetadata({ topics: names });
        for (const topic of topics) {
          const leaderless = topic.partitions.filter((partition) => partition.leader < 0);
          if (topic.partitions.length < partitions || leaderless.length > 0)
            throw new Error(`topic ${topic.name} has no leader for every partition yet`);
        }
      },
      timeoutMs,
      250,
    );
  } finally {
    await admin.disconnect();
  }
}

/**
 * The topics a jest run made on the shared Kafka, one name a line, for its global tear-down to delete
 * (dropRunTopics). Every platform and consumer spec makes topics of its own; kept, they piled up on a
 * developer's Kafka (1,800 topics, 5,200 partitions after six runs) and made every later run slower.
 */
const runTopicsFile = (run: string) => join(tmpdir(), `corridor-test-topics-${run}.txt`);

function recordRunTopics(names: string[], brokers: string[]): void {
  const run = process.env[TEST_RUN_ENV];
  // Only the shared Kafka's: a suite's own Kafka goes away with the suite.
  if (run && brokers.join(',') === KAFKA_BROKERS.join(',')) {
    appendFileSync(runTopicsFile(run), names.map((name) => `${name}\n`).join(''));
  }
}

/** Deletes the topics this run made on the shared Kafka (jest's global tear-down); returns how many. */
export async function dropRunTopics(run: string): Promise<number> {
  const file = runTopicsFile(run);
  let topics: string[];
  try {
    topics = [...new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean))];
  } catch {
    return 0;
  }
  const admin = testKafka('corridor-test-teardown').admin();
  await admin.connect();
  try {
    for (let start = 0; start < topics.length; start += 100) {
      await admin.deleteTopics({ topics: topics.slice(start, start + 100), timeout: 30_000 });
    }
  } finally {
    await admin.disconnect();
  }
  rmSync(file, { force: true });
  return topics.length;
}

export interface ReceivedEvent {
  event: Event;
  topic: string;
  partition: number;
  key: string | undefined;
  headers: Record<string, string>;
}

function headersOf(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    const one = Array.isArray(value) ? value[0] : value;
    if (one !== undefined) out[key] = one.toString();
  }
  return out;
}

/** Reads every event on the topics from the beginning, in a group of its own. */
export class EventCollector {
  readonly received: ReceivedEvent[] = [];
  private consumer: Consumer | undefined;

  constructor(private readonly topics: string[]) {}

  async start(): Promise<this> {
    this.consumer = testKafka().consumer({ groupId: `collector-${uniqueSuffix()}`, allowAutoTopicCreation: false });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.topics, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        if (!message.value) return;
        this.received.push({
          event: fromBinary(EventSchema, message.value),
          topic,
          partition,
          key: message.key?.toString(),
          headers: headersOf(message.headers),
        });
      },
    });
    return this;
  }

  /** Waits until `predicate` matches `count` events; returns them. */
  async waitFor(predicate: (e: ReceivedEvent) => boolean, count = 1, timeoutMs = 30_000): Promise<ReceivedEvent[]> {
    return eventually(() => {
      const matching = this.received.filter(predicate);
      if (matching.length < count)
        throw new Error(`saw ${matching.length} of ${count} matching events (${this.received.length} in all)`);
      return matching;
    }, timeoutMs);
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
