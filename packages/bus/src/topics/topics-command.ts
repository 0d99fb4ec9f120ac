import { createLogger } from '@corridor/logging';
import { createKafka } from '../producer.js';
import { ensureTopics, type TopicSpec } from './ensure-topics.js';

const usage =
  'usage: node dist/topics.js <topic>:<partitions>...   (KAFKA_BROKERS, KAFKA_TOPIC_PREFIX from the environment)';

/** `corridor.identity.v1:3` → {name, partitions}; undefined when the argument is not of that form. */
export function parseTopicArgument(argument: string): TopicSpec | undefined {
  const match = /^([a-zA-Z0-9._-]{1,200}):([1-9][0-9]{0,4})$/.exec(argument);
  return match ? { name: match[1] as string, partitions: Number(match[2]) } : undefined;
}

/** The service's own configuration values the command reads (its config shape's). */
export interface TopicsCommandConfig {
  KAFKA_BROKERS: string[];
  /** Prepended to every name, as the service itself does. */
  KAFKA_TOPIC_PREFIX: string;
  LOG_LEVEL?: string;
}

/**
 * A service's `node dist/topics.js <topic>:<partitions>...` (its chart's topics hook Job): each
 * topic exists with at least those partitions afterwards (ensureTopics). Exit status 0, 64 on bad
 * arguments, 1 when Kafka refused or could not be reached.
 */
export async function runTopicsCommand(
  argv: readonly string[],
  service: string,
  config: TopicsCommandConfig,
  stderr: (text: string) => void = (text) => void process.stderr.write(text),
): Promise<number> {
  const parsed = argv.map(parseTopicArgument);
  const bad = argv.filter((_, i) => parsed[i] === undefined);
  const declared = parsed.filter((spec): spec is TopicSpec => spec !== undefined);
  if (declared.length === 0 || bad.length > 0) {
    stderr(`${usage}\n${bad.length ? `not <topic>:<partitions>: ${bad.join(' ')}\n` : ''}`);
    return 64;
  }
  const logger = createLogger(`${service} topics`, { level: config.LOG_LEVEL ?? 'info' });
  const admin = createKafka(`${service}-topics`, config.KAFKA_BROKERS, logger).admin();
  try {
    await admin.connect();
    const outcomes = await ensureTopics(
      admin,
      declared.map((spec) => ({ ...spec, name: `${config.KAFKA_TOPIC_PREFIX}${spec.name}` })),
      logger,
    );
    const kept = outcomes.filter((o) => o.action === 'kept').length;
    logger.info({ topics: outcomes.length, kept }, 'topics ready');
    return 0;
  } catch (error) {
    logger.error({ err: error }, 'topics not ensured');
    return 1;
  } finally {
    await admin.disconnect();
  }
}
