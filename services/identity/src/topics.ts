import { runTopicsCommand } from '@corridor/bus';
import { loadConfig } from '@corridor/config';
import { identityConfigShape } from './config.js';

// `node dist/topics.js <topic>:<partitions>...`: the chart's hook Job, before the migrations.
const { KAFKA_BROKERS, KAFKA_TOPIC_PREFIX, LOG_LEVEL } = identityConfigShape;
const config = loadConfig('identity topics', { KAFKA_BROKERS, KAFKA_TOPIC_PREFIX, LOG_LEVEL });
process.exitCode = await runTopicsCommand(process.argv.slice(2), 'identity', config);
