import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKafka } from '@corridor/bus';
import { createLogger } from '@corridor/logging';
import { createTopics, eventually, freePort, REPO_ROOT } from '@corridor/testing';

/**
 * A Kafka broker of one test's own (KRaft, one node, broker and controller), from the jars
 * deploy/local/kafka.sh resolved into .local/kafka/libs-<version>: a suite may stop and start it
 * without touching the shared broker on 9092 that every other suite uses.
 */

/** Every broker JVM still running: they die with jest, whatever state a failed suite left. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

const silent = createLogger('e2e-kafka', { level: 'silent' });

/** The newest complete jar folder kafka.sh left (it writes `.complete` last). */
function kafkaLibs(): string {
  const home = join(REPO_ROOT, '.local', 'kafka');
  const folders = existsSync(home)
    ? readdirSync(home)
        .filter((name) => name.startsWith('libs-') && !name.endsWith('.tmp'))
        .filter((name) => existsSync(join(home, name, '.complete')))
        .sort()
    : [];
  const newest = folders.at(-1);
  if (!newest) throw new Error(`no Kafka jars under ${home}: run deploy/local/kafka.sh up once`);
  return join(home, newest);
}

/** A KRaft cluster id: 16 random bytes, base64url without padding, not starting with "-" (as Kafka's Uuid). */
function clusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

function serverProperties(dir: string, port: number, controllerPort: number): string {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    'inter.broker.listener.name=PLAINTEXT',
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${join(dir, 'data')}`,
    // As the shared broker: topics exist only when a test creates them.
    'auto.create.topics.enable=false',
    'num.partitions=3',
    'default.replication.factor=1',
    'min.insync.replicas=1',
    'offsets.topic.replication.factor=1',
    // One partition each: the 50 default ones take seconds to create on a 2-CPU host.
    'offsets.topic.num.partitions=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    'num.network.threads=2',
    'num.io.threads=2',
    '',
  ].join('\n');
}

const JAVA = process.env.JAVA ?? 'java';

export class KafkaBroker {
  private child: ChildProcess | undefined;
  private exited: Promise<unknown> = Promise.resolve();
  private log = '';

  private constructor(
    private readonly dir: string,
    private readonly libs: string,
    readonly port: number,
  ) {}

  /** `127.0.0.1:<port>`, for KAFKA_BROKERS. */
  get brokers(): string[] {
    return [`127.0.0.1:${this.port}`];
  }

  /** The broker's output so far (the last 20,000 characters), for failure messages. */
  output(): string {
    return this.log;
  }

  /**
   * Formats a fresh data folder with a new cluster id on free ports and starts the broker; on any
   * failure the process is killed and the folder removed before rethrowing.
   */
  static async start(): Promise<KafkaBroker> {
    const libs = kafkaLibs();
    const dir = mkdtempSync(join(tmpdir(), 'corridor-kafka-'));
    const [port, controllerPort] = await Promise.all([freePort(), freePort()]);
    const broker = new KafkaBroker(dir, libs, port);
    try {
      writeFileSync(join(dir, 'server.properties'), serverProperties(dir, port, controllerPort));
      await broker.format();
      await broker.resume();
      return broker;
    } catch (error) {
      await broker.destroy();
      throw error;
    }
  }

  private java(args: string[], heap: string[]): ChildProcess {
    const child = spawn(
      JAVA,
      [
        ...heap,
        '-XX:+UseSerialGC',
        '-XX:TieredStopAtLevel=1',
        '-Djava.awt.headless=true',
        '-Dcorridor.log.level=WARN',
        `-Dlog4j2.configurationFile=${join(REPO_ROOT, 'deploy/local/kafka/log4j2.properties')}`,
        '-cp',
        `${this.libs}/*`,
        ...args,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    running.add(child);
    const keep = (chunk: Buffer) => (this.log = (this.log + chunk.toString()).slice(-20_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', () => running.delete(child));
    return child;
  }

  private async format(): Promise<void> {
    const format = this.java(
      ['kafka.tools.StorageTool', 'format', '-t', clusterId(), '-c', join(this.dir, 'server.properties')],
      ['-Xmx256m'],
    );
    const [code] = (await once(format, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`formatting Kafka storage failed (${code}):\n${this.log}`);
  }

  /** Starts the broker on its data folder and ports (again after `stop`); resolves once it answers. */
  async resume(timeoutMs = 60_000): Promise<void> {
    if (this.child) throw new Error('the broker is already running');
    const child = this.java(['kafka.Kafka', join(this.dir, 'server.properties')], ['-Xms128m', '-Xmx512m']);
    this.child = child;
    this.exited = once(child, 'exit').then(() => {
      if (this.child === child) this.child = undefined;
    });
    const admin = createKafka('e2e-kafka-probe', this.brokers, silent).admin({ retry: { retries: 0 } });
    try {
      await eventually(
        async () => {
          if (child.exitCode !== null || child.signalCode !== null)
            throw new Error(`Kafka exited (${child.exitCode ?? child.signalCode}) while starting:\n${this.log}`);
          await admin.connect();
          await admin.describeCluster();
        },
        timeoutMs,
        250,
      );
    } catch (error) {
      await this.stop('SIGKILL');
      throw new Error(`Kafka on ${this.brokers.join(',')} did not start: ${String(error)}\n${this.log}`);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /** Stops the broker (SIGTERM: a controlled shutdown) and waits for the process to end; data stays. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 30_000): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Creates topics on this broker and waits until every partition has a leader. */
  createTopics(names: string[], partitions = 3): Promise<void> {
    return createTopics(names, partitions, { brokers: this.brokers, timeoutMs: 30_000 });
  }

  /** Kills the broker if it runs and deletes its data: call in afterAll. */
  async destroy(): Promise<void> {
    await this.stop('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
