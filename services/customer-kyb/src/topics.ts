import { runTopicsCommand } from '@corridor/bus';
import { loadConfig } from '@corridor/config';
import { customerKybConfigShape } from './config.js';

// `node dist/topics.js <topic>:<partitions>...`: the chart's hook Job, before the migrations.
const { KAFKA_BROKERS, KAFKA_TOPIC_PREFIX, LOG_LEVEL } = customerKybConfigShape;
const config = loadConfig('customer-kyb topics', { KAFKA_BROKERS, KAFKA_TOPIC_PREFIX, LOG_LEVEL });
process.exitCode = await runTopicsCommand(process.argv.slice(2), 'customer-kyb', config);
