import { parseTopicArgument, runTopicsCommand } from './topics-command.js';

describe('the topics command', () => {
  it('reads <topic>:<partitions>', () => {
    expect(parseTopicArgument('corridor.identity.v1:3')).toEqual({ name: 'corridor.identity.v1', partitions: 3 });
    expect(parseTopicArgument('corridor.identity.v1')).toBeUndefined();
    expect(parseTopicArgument('corridor.identity.v1:0')).toBeUndefined();
    expect(parseTopicArgument('corridor identity:3')).toBeUndefined();
  });

  it('exits 64 naming the bad argument, before connecting to Kafka', async () => {
    const written: string[] = [];
    const config = { KAFKA_BROKERS: ['127.0.0.1:1'], KAFKA_TOPIC_PREFIX: '' };
    const stderr = (t: string) => void written.push(t);
    expect(await runTopicsCommand(['corridor.identity.v1:3', 'oops'], 'identity', config, stderr)).toBe(64);
    expect(written.join('')).toMatch(/not <topic>:<partitions>: oops/);
    expect(await runTopicsCommand([], 'identity', config, stderr)).toBe(64);
    expect(written.at(-1)).toMatch(/^usage: node dist\/topics.js/);
  });
});
