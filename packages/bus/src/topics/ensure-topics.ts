import type { Admin } from 'kafkajs';
import type { Logger } from '@corridor/logging';

/** A topic a service publishes to, and how many partitions it declares (its chart's kafka.topics). */
export interface TopicSpec {
  name: string;
  partitions: number;
}

/**
 * What ensureTopics did to one topic. `kept`: the topic has more partitions than declared, and
 * keeps them (Kafka cannot remove partitions, and fewer would move keys to other partitions anyway).
 */
export interface TopicOutcome {
  topic: string;
  action: 'created' | 'raised' | 'unchanged' | 'kept';
  declared: number;
  partitions: number;
}

export interface EnsureTopicsOptions {
  /** How long to wait for every partition of a created or raised topic to have a leader. */
  timeoutMs?: number;
}

/**
 * Makes each declared topic exist with at least its declared partitions: creates the missing ones,
 * raises a lower count, never lowers a higher one (logged, not an error). Safe to run again, and
 * beside another run: a topic or partitions created meanwhile by someone else count as done.
 */
export async function ensureTopics(
  admin: Admin,
  specs: readonly TopicSpec[],
  logger: Logger,
  { timeoutMs = 60_000 }: EnsureTopicsOptions = {},
): Promise<TopicOutcome[]> {
  const names = specs.map((spec) => spec.name);
  if (new Set(names).size !== names.length) throw new Error(`a topic is declared twice: ${names.join(', ')}`);
  for (const spec of specs) {
    if (!Number.isInteger(spec.partitions) || spec.partitions < 1) {
      throw new Error(`${spec.name}: partitions must be a positive integer (got ${spec.partitions})`);
    }
  }
  if (specs.length === 0) return [];

  const existing = new Set(await admin.listTopics());
  const missing = specs.filter((spec) => !existing.has(spec.name));
  const created = new Set<string>();
  for (const spec of missing) {
    // One at a time: false (not an error) when the topic appeared since listTopics (another run), and
    // the counts below decide. Not kafkajs's waitForLeaders, which gives up while a busy broker has
    // not published the new topic's metadata yet.
    const madeHere = await admin.createTopics({
      waitForLeaders: false,
      topics: [{ topic: spec.name, numPartitions: spec.partitions }],
    });
    if (madeHere) created.add(spec.name);
  }

  const live = await retrying(() => partitionCounts(admin, names), timeoutMs);
  const outcomes: TopicOutcome[] = [];
  for (const spec of specs) {
    const partitions = live.get(spec.name) ?? 0;
    if (partitions < spec.partitions) {
      await raisePartitions(admin, spec);
      outcomes.push({ topic: spec.name, action: 'raised', declared: spec.partitions, partitions: spec.partitions });
      logger.info({ topic: spec.name, from: partitions, to: spec.partitions }, 'topic partitions raised');
    } else if (created.has(spec.name) && partitions === spec.partitions) {
      outcomes.push({ topic: spec.name, action: 'created', declared: spec.partitions, partitions });
      logger.info({ topic: spec.name, partitions }, 'topic created');
    } else if (partitions > spec.partitions) {
      outcomes.push({ topic: spec.name, action: 'kept', declared: spec.partitions, partitions });
      logger.warn(
        { topic: spec.name, declared: spec.partitions, partitions },
        'topic has more partitions than declared; kept (Kafka cannot remove partitions)',
      );
    } else {
      outcomes.push({ topic: spec.name, action: 'unchanged', declared: spec.partitions, partitions });
      logger.info({ topic: spec.name, partitions }, 'topic unchanged');
    }
  }

  const changed = outcomes.filter((o) => o.action === 'created' || o.action === 'raised').map((o) => o.topic);
  if (changed.length > 0) await retrying(() => everyPartitionLed(admin, changed), timeoutMs);
  return outcomes;
}

async function partitionCounts(admin: Admin, names: string[]): Promise<Map<string, number>> {
  const { topics } = await admin.fetchTopicMetadata({ topics: names });
  const counts = new Map(topics.map((topic) => [topic.name, topic.partitions.length]));
  const unknown = names.filter((name) => !counts.get(name));
  if (unknown.length > 0) throw new Error(`no metadata yet for ${unknown.join(', ')}`);
  return counts;
}

async function raisePartitions(admin: Admin, spec: TopicSpec): Promise<void> {
  try {
    await admin.createPartitions({ topicPartitions: [{ topic: spec.name, count: spec.partitions }] });
  } catch (error) {
    // Another run raised it first: what counts is that the topic now has enough.
    const now = (await partitionCounts(admin, [spec.name]).catch(() => undefined))?.get(spec.name) ?? 0;
    if (now < spec.partitions) throw error;
  }
}

async function everyPartitionLed(admin: Admin, names: string[]): Promise<void> {
  const { topics } = await admin.fetchTopicMetadata({ topics: names });
  const leaderless = topics.filter((topic) => topic.partitions.some((partition) => partition.leader < 0));
  if (leaderless.length > 0)
    throw new Error(`no leader for every partition of ${leaderless.map((t) => t.name).join(', ')}`);
}

/** Metadata of a topic just created or raised lags on a busy broker: ask again until the deadline. */
async function retrying<T>(attempt: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
