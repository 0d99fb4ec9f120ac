import type { Kafka } from '@corridor/bus';

/**
 * Events on each topic that the group has not committed yet: the high watermark minus the committed
 * offset, summed over partitions (a partition with nothing committed counts from its low watermark).
 */
export function consumerLag(kafka: Kafka, groupId: string, topics: readonly string[]) {
  const admin = kafka.admin();
  let connected: Promise<void> | undefined;
  return async (): Promise<{ topic: string; lag: number }[]> => {
    connected ??= admin.connect().catch((error: unknown) => {
      connected = undefined;
      throw error;
    });
    await connected;
    const committed = await admin.fetchOffsets({ groupId, topics: [...topics] });
    return Promise.all(
      topics.map(async (topic) => {
        const ends = await admin.fetchTopicOffsets(topic);
        const done = new Map(
          (committed.find((entry) => entry.topic === topic)?.partitions ?? []).map((p) => [
            p.partition,
            Number(p.offset),
          ]),
        );
        const lag = ends.reduce((sum, { partition, high, low }) => {
          const offset = done.get(partition) ?? -1;
          return sum + Number(high) - (offset >= 0 ? offset : Number(low));
        }, 0);
        return { topic, lag };
      }),
    );
  };
}
