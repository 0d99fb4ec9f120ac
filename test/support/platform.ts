import { randomBytes } from 'node:crypto';
import {
  createTestBucket,
  testBucketNamed,
  testDatabaseAt,
  createTopics,
  eventually,
  freePort,
  KAFKA_BROKERS,
  logged,
  MailReceiver,
  REPO_ROOT,
  startService,
  uniqueSuffix,
  type ServiceProcess,
  type TestBucket,
  type TestDatabase,
} from '@corridor/testing';
import { CustomerApi, type CustomerEventLog } from './customers.js';
import { migratedDatabase } from './databases.js';
import { PaymentsApi, PaymentsProcess } from './payments.js';
import { WebhookApi } from './webhooks.js';
import { publishShared, sharedState, type SharedPlatformState } from './shared-platform.js';

export interface Credentials {
  client_id: string;
  client_secret: string;
  business_id: string;
  scopes: string[];
}

export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/** One more gateway process: a replica of the platform's gateway, or one configured differently. */
export interface GatewayProcess {
  process: ServiceProcess;
  publicUrl: string;
  adminUrl: string;
  /** A call to this gateway's public API with a bearer token. */
  api(path: string, token: string | undefined, init?: RequestInit): Promise<Response>;
  /** A call to this gateway's admin listener with the admin token. */
  admin(path: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

export interface PlatformOptions {
  environment?: 'sandbox' | 'production';
  /** Extra environment for the gateway. */
  gatewayEnv?: Record<string, string>;
  /** Collector endpoint the services export spans to. */
  otlpEndpoint?: string;
  /** Extra environment for identity's first start. */
  identityEnv?: Record<string, string>;
  /**
   * Start customer-kyb (its own database, bucket and topic) and route the gateway to it. On by
   * default: the gateway is ready only when customer-kyb answers its health check, so suites that
   * read /readyz need it even when they never touch a customer. It adds about 2.5 s to a start
   * (measured: 8.0 s → 10.5 s); `false` leaves the customer routes answering 503.
   */
  customers?: boolean;
  /** Extra environment for customer-kyb. */
  customerKybEnv?: Record<string, string>;
  /**
   * Start notification (its own database) and route the gateway to it. On by default for the same
   * reason as customer-kyb: the gateway's /readyz needs it. It is migrated and started alongside
   * identity and customer-kyb, yet adds about 2.5 s to a start on a 2-CPU host (measured: 6.4 s →
   * 8.9 s); `false` leaves the webhook routes answering 503 and /readyz reporting notification down.
   */
  notifications?: boolean;
  /** Extra environment for notification (e.g. WEBHOOK_ALLOW_CIDRS for a receiver on 127.0.0.1). */
  notificationEnv?: Record<string, string>;
  /**
   * Start payments (its own database) and route the gateway to it. On by default like notification;
   * `false` leaves the payments routes answering 503.
   */
  payments?: boolean;
  /** Extra environment for payments (e.g. QUOTE_TTL_SECONDS). */
  paymentsEnv?: Record<string, string>;
  /**
   * Brokers of a Kafka of the suite's own (test/support/kafka-broker.ts), for every service and the
   * topics, so the suite can stop it; `createTopics` makes the topics there. Default: the shared one.
   */
  kafka?: { brokers: string[]; createTopics(names: string[]): Promise<void> };
  /**
   * Admin URL of a PostgreSQL of the suite's own (a PostgresCluster of @corridor/testing), where every
   * service's database is made, so the suite can stop it. Default: the shared one.
   */
  postgresAdminUrl?: string;
  /**
   * Run every service under deploy/local/supervise.mjs, as `npm start` does, so a killed service
   * comes back by itself.
   */
  supervised?: boolean;
  /**
   * Start the dashboard (services/dashboard) on a port of its own, against this platform's identity
   * and its gateway's Redis prefix (it writes the gateways' access cache), with identity mailing a
   * `MailReceiver` the platform starts (`mail`) and its links pointing at the dashboard. Off by default.
   */
  dashboard?: boolean;
  /** Extra environment for the dashboard (e.g. SESSION_IDLE_SECONDS). */
  dashboardEnv?: Record<string, string>;
  /**
   * How many of each service (issue 36): each replica of identity, customer-kyb, notification and
   * payments on a port of its own, every client given all of a service's replicas (balanced
   * round-robin), and as many gateways (and dashboards) sharing Redis. Default 1.
   */
  replicas?: number;
  /**
   * The repository root each service runs from, e.g. a previous release's build
   * (deploy/release/build-previous.sh) for issue 33's version-skew suite; a service not named runs
   * from this tree. A service's database is migrated by its root's own migrations.
   */
  roots?: Partial<Record<PlatformService, string>>;
}

/** Every answer of the public API since `spreadOverGateways`, by "status code", and 503s without Retry-After. */
export interface AnswerTally {
  answers: Map<string, number>;
  unavailableWithoutRetryAfter: string[];
}

/** The services a platform can run several replicas of, behind their gRPC addresses. */
export type ReplicatedService = 'identity' | 'customer-kyb' | 'notification' | 'payments';

/** Every process of a platform, by its folder under services/. */
export type PlatformService = ReplicatedService | 'gateway' | 'dashboard';

/** A dashboard process of the platform: where members open it. */
export interface DashboardProcess {
  process: ServiceProcess;
  /** http://127.0.0.1:<port>, its DASHBOARD_ORIGIN. */
  url: string;
  stop(): Promise<void>;
}

/**
 * The gateway, identity, customer-kyb (unless `customers: false`), notification (unless
 * `notifications: false`) and payments (unless `payments: false`) as real processes, on free ports,
 * with databases, a bucket and Kafka topics of their own: suites never see each other's rows, files
 * or events, nor a running `npm start`. `Platform.shared()` is the exception: one default platform
 * per jest worker, for suites that only call its APIs.
 */
export class Platform {
  identity!: ServiceProcess;
  gateway!: ServiceProcess;
  db!: TestDatabase;
  /** customer-kyb, its database and its bucket: unset when started with `customers: false`. */
  customerKyb: ServiceProcess | undefined;
  customerDb: TestDatabase | undefined;
  bucket: TestBucket | undefined;
  /** notification and its database: unset when started with `notifications: false`. */
  notification: ServiceProcess | undefined;
  notificationDb: TestDatabase | undefined;
  /** The dashboard and the SMTP server identity's mails reach: set when started with `dashboard: true`. */
  dashboard: DashboardProcess | undefined;
  mail: MailReceiver | undefined;
  readonly adminToken: string;
  readonly identitySecretKey: string;
  readonly notificationSecretKey: string;
  readonly topicPrefix: string;
  readonly identityTopic: string;
  readonly customerTopic: string;
  readonly paymentsTopic: string;
  /** payments, its database and port (test/support/payments.ts); unstarted with `payments: false`. */
  readonly paymentsService: PaymentsProcess;
  /** The payments API through this platform's gateway and admin listener (needs payments, the default). */
  readonly payments = new PaymentsApi(this);
  /** The customer API through this platform's gateway (needs customer-kyb, the default). */
  readonly customers = new CustomerApi(this);
  /** The webhook configuration API through this platform's gateway (needs notification, the default). */
  readonly webhooks = new WebhookApi(this);
  private identityPort = 0;
  /** customer-kyb's gRPC port; with `customers: false`, a port nobody listens on (never `npm start`'s). */
  private customerPort = 0;
  /** notification's gRPC port; with `notifications: false`, a port nobody listens on. */
  private notificationPort = 0;
  /** notification's Prometheus /metrics port. */
  notificationMetricsPort = 0;
  private publicPort = 0;
  private adminPort = 0;
  /** The dashboard's port (identity's DASHBOARD_URL names it before the dashboard starts); 0 without one. */
  private dashboardPort = 0;
  /** Replicas and other extra processes, stopped with the platform. */
  private readonly extraProcesses: ServiceProcess[] = [];
  /** The gRPC ports of replicas 2..N of each service (`replicas`); empty with one of each. */
  private readonly replicaPorts: Record<ReplicatedService, number[]> = {
    identity: [],
    'customer-kyb': [],
    notification: [],
    payments: [],
  };
  /** Replicas 2..N of each service, by service (`replicas`), in port order. */
  readonly replicaProcesses: Record<ReplicatedService, ServiceProcess[]> = {
    identity: [],
    'customer-kyb': [],
    notification: [],
    payments: [],
  };
  /** Gateways 2..N (`replicas`): the same Redis, identity and services as the platform's gateway. */
  readonly moreGateways: GatewayProcess[] = [];
  /** How each replica 2..N was started, to start it again the same way. */
  private readonly replicaStarts = new Map<
    ServiceProcess,
    { service: ReplicatedService; env: Record<string, string>; ready: string }
  >();
  private starting: Promise<this> | undefined;
  /** Whether `start()` succeeded: an `afterAll` check (e.g. the books) has a platform to ask. */
  started = false;
  /** Where each service runs from now (`roots`, then `moveService`); unnamed: this tree. */
  private readonly roots: Partial<Record<PlatformService, string>>;

  /**
   * A platform of the suite's own: started by `start()`, everything of it ended by `stop()`.
   * @param shared set by `Platform.shared()` only: the worker's shared platform when an earlier
   *   suite started it (`state`), else where to publish it once started.
   */
  constructor(
    private readonly options: PlatformOptions = {},
    private readonly shared?: { file: string; state: SharedPlatformState | undefined },
  ) {
    const state = shared?.state;
    this.adminToken = state?.adminToken ?? randomBytes(24).toString('hex');
    this.identitySecretKey = state?.identitySecretKey ?? randomBytes(32).toString('hex');
    this.notificationSecretKey = state?.notificationSecretKey ?? randomBytes(32).toString('hex');
    this.topicPrefix = state?.topicPrefix ?? `e2e-${uniqueSuffix()}.`;
    this.identityTopic = `${this.topicPrefix}corridor.identity.v1`;
    this.customerTopic = `${this.topicPrefix}corridor.customer.v1`;
    this.paymentsTopic = `${this.topicPrefix}corridor.payments.v1`;
    this.paymentsService = new PaymentsProcess(this, options.paymentsEnv);
    this.roots = { ...options.roots };
  }

  /** The repository root `service` runs from: this tree's unless `roots` or `moveService` says another. */
  rootOf(service: PlatformService): string {
    return this.roots[service] ?? REPO_ROOT;
  }

  /**
   * The jest worker's default platform, started by the first suite that asks and used by every later
   * one: a platform start (five processes, four databases) costs 7-10 s of the 2 CPUs, and most
   * suites only call the public and admin APIs, each as businesses of their own. Not for a suite
   * that stops, restarts or reads the logs of a process, needs other options, or reads or changes
   * anything platform-wide (the review queue across businesses, exchange rates, metrics): those
   * make their own.
   * `stop()` leaves it running; its processes end with the worker, and jest's global tear-down
   * drops its databases and bucket (test/global-teardown.mjs).
   */
  static shared(): Platform {
    return new Platform({}, sharedState());
  }

  get environment(): 'sandbox' | 'production' {
    return this.options.environment ?? 'sandbox';
  }

  /** KAFKA_BROKERS of every service: the suite's own Kafka, else the shared one. */
  get kafkaBrokers(): string {
    return (this.options.kafka?.brokers ?? KAFKA_BROKERS).join(',');
  }

  /** Where the services' databases are made: the suite's own PostgreSQL, else the shared one. */
  get postgresAdminUrl(): string | undefined {
    return this.options.postgresAdminUrl;
  }

  /** Whether the services run under deploy/local/supervise.mjs. */
  get supervised(): boolean {
    return this.options.supervised ?? false;
  }

  /** Every replica's address of a service, comma-separated: what its clients are given. */
  private targetsOf(service: ReplicatedService, firstPort: number): string {
    return [firstPort, ...this.replicaPorts[service]].map((port) => `127.0.0.1:${port}`).join(',');
  }

  /** Where identity listens (every replica), for the services that call it. */
  get identityAddress(): string {
    return this.targetsOf('identity', this.identityPort);
  }

  /** Where customer-kyb listens (every replica), for payments' reads of a customer its projection lags on (decision 0033). */
  get customerAddress(): string {
    return this.targetsOf('customer-kyb', this.customerPort);
  }

  /** Where notification listens (every replica). */
  get notificationAddress(): string {
    return this.targetsOf('notification', this.notificationPort);
  }

  /** Where payments listens (every replica). */
  get paymentsAddress(): string {
    return this.targetsOf('payments', this.paymentsService.port);
  }

  /** The gateways' public URLs: the platform's first, then its replicas'. */
  get publicUrls(): string[] {
    return [this.publicUrl, ...this.moreGateways.map((gateway) => gateway.publicUrl)];
  }

  /**
   * From now on every `api` call goes to the gateways in turn (`replicas`), and every answer is
   * counted by status and code ("201", "503 SERVICE_UNAVAILABLE"), with the paths of the 503s that
   * carried no Retry-After: what issue 36's two-of-everything suite and soak read at the end.
   */
  spreadOverGateways(): AnswerTally {
    const tally: AnswerTally = { answers: new Map(), unavailableWithoutRetryAfter: [] };
    const gateways = this.publicUrls;
    let turn = 0;
    this.api = async (path, token, init = {}) => {
      const response = await this.apiAt(gateways[turn++ % gateways.length] ?? this.publicUrl, path, token, init);
      const body =
        response.status >= 400
          ? ((await response
              .clone()
              .json()
              .catch(() => ({}))) as { code?: string })
          : {};
      const key = `${response.status} ${body.code ?? ''}`.trim();
      tally.answers.set(key, (tally.answers.get(key) ?? 0) + 1);
      if (response.status === 503 && !response.headers.get('retry-after'))
        tally.unavailableWithoutRetryAfter.push(path);
      return response;
    };
    return tally;
  }

  /** The gateways' Redis key prefix: this platform's cache entries and counters only. */
  get redisKeyPrefix(): string {
    return `corridor-${this.topicPrefix.replace(/\.$/, '')}`;
  }

  get publicUrl() {
    return `http://127.0.0.1:${this.publicPort}`;
  }
  get adminUrl() {
    return `http://127.0.0.1:${this.adminPort}`;
  }

  /**
   * Starts everything; on failure, stops whatever did start before rethrowing, so a failed
   * `beforeAll` leaves no process, database or bucket behind.
   */
  start(): Promise<this> {
    const state = this.shared?.state;
    if (state) {
      return (this.starting ??= this.adopt(state).then(() => {
        this.started = true;
        return this;
      }));
    }
    this.starting ??= this.startAll().then(
      () => {
        this.started = true;
        return this;
      },
      async (error: unknown) => {
        await this.stopStarted();
        throw error;
      },
    );
    return this.starting;
  }

  private async startAll(): Promise<void> {
    const customers = this.options.customers ?? true;
    const notifications = this.options.notifications ?? true;
    const payments = this.options.payments ?? true;
    const dashboard = this.options.dashboard ?? false;
    [
      this.identityPort,
      this.customerPort,
      this.notificationPort,
      this.notificationMetricsPort,
      this.publicPort,
      this.adminPort,
      this.paymentsService.port,
      this.dashboardPort,
    ] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      dashboard ? freePort() : 0,
    ]);
    const replicas = this.options.replicas ?? 1;
    for (const service of Object.keys(this.replicaPorts) as ReplicatedService[]) {
      this.replicaPorts[service] = await Promise.all(Array.from({ length: replicas - 1 }, () => freePort()));
    }
    // Each resource is recorded the moment it exists and every step runs to its end (settled, not
    // raced), so a failure in one leaves nothing of the others unstopped.
    await settled([
      migratedDatabase('identity', this.postgresAdminUrl, this.rootOf('identity')).then((db) => (this.db = db)),
      customers
        ? migratedDatabase('customer-kyb', this.postgresAdminUrl, this.rootOf('customer-kyb')).then(
            (db) => (this.customerDb = db),
          )
        : undefined,
      customers ? createTestBucket('e2e-customers').then((bucket) => (this.bucket = bucket)) : undefined,
      notifications
        ? migratedDatabase('notification', this.postgresAdminUrl, this.rootOf('notification')).then(
            (db) => (this.notificationDb = db),
          )
        : undefined,
      payments ? this.paymentsService.createDatabase() : undefined,
      dashboard ? MailReceiver.start().then((mail) => (this.mail = mail)) : undefined,
      // All always: notification consumes every event topic, whichever producers are started.
      (this.options.kafka?.createTopics.bind(this.options.kafka) ?? createTopics)([
        this.identityTopic,
        this.customerTopic,
        this.paymentsTopic,
      ]),
    ]);
    // Identity, customer-kyb, notification and payments need nothing of each other to start (payments
    // calls identity only per request): each is started side by side, then the gateway.
    await settled([
      this.startIdentity(this.options.identityEnv),
      customers ? this.startCustomerKyb() : undefined,
      notifications ? this.startNotification() : undefined,
      payments ? this.paymentsService.start() : undefined,
    ]);
    if (replicas > 1) await this.startReplicas({ customers, notifications, payments });
    this.gateway = await this.spawnGateway(this.publicPort, this.adminPort, {});
    for (let gateway = 2; gateway <= replicas; gateway++) this.moreGateways.push(await this.startGateway());
    if (dashboard) this.dashboard = await this.spawnDashboard(this.dashboardPort, {});
    if (this.shared) publishShared(this.shared.file, this.sharedStateOf());
  }

  /**
   * A crash of replica `index` (0: the platform's second) of `service` and its start again on the
   * same port, as a supervisor would; the other replica serves meanwhile.
   */
  async restartReplica(service: ReplicatedService, index = 0, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const replicas = this.replicaProcesses[service];
    const old = replicas[index];
    const how = old && this.replicaStarts.get(old);
    if (!old || !how) throw new Error(`${service} has no replica ${index + 2}`);
    await old.kill(signal);
    const process = await startService({ service, root: this.rootOf(service), env: how.env, ready: logged(how.ready) });
    replicas[index] = process;
    this.extraProcesses[this.extraProcesses.indexOf(old)] = process;
    this.replicaStarts.delete(old);
    this.replicaStarts.set(process, how);
  }

  /**
   * Replicas 2..N of every started service, each on its own port and otherwise configured as the
   * first (its outbox relay, consumers and workers on too: they share the work through the
   * database's locks and Kafka's consumer groups, as in a cluster).
   */
  private async startReplicas(started: { customers: boolean; notifications: boolean; payments: boolean }) {
    const own = (variable: string, port: number) => ({ [variable]: `127.0.0.1:${port}` });
    const starts: Promise<unknown>[] = [];
    const start = (service: ReplicatedService, env: Record<string, string>, ready: string) =>
      starts.push(
        startService({
          service,
          root: this.rootOf(service),
          env,
          ready: logged(ready),
          supervised: this.supervised,
        }).then((process) => {
          this.replicaProcesses[service].push(process);
          this.extraProcesses.push(process);
          this.replicaStarts.set(process, { service, env, ready });
        }),
      );
    for (const port of this.replicaPorts.identity) {
      start(
        'identity',
        this.identityEnv({ ...this.options.identityEnv, ...own('IDENTITY_GRPC_ADDRESS', port) }),
        'identity listening',
      );
    }
    for (const port of started.customers ? this.replicaPorts['customer-kyb'] : []) {
      start('customer-kyb', this.customerKybEnv(own('CUSTOMER_GRPC_ADDRESS', port)), 'customer-kyb listening');
    }
    for (const port of started.notifications ? this.replicaPorts.notification : []) {
      const metrics = await freePort();
      start(
        'notification',
        this.notificationEnv({ ...own('NOTIFICATION_GRPC_ADDRESS', port), METRICS_PORT: String(metrics) }),
        'notification listening',
      );
    }
    for (const port of started.payments ? this.replicaPorts.payments : []) {
      start('payments', this.paymentsService.env(own('PAYMENTS_GRPC_ADDRESS', port)), 'payments listening');
    }
    await settled(starts);
  }

  /** What a later suite needs to use this platform (`Platform.shared()`): ports, secrets, databases. */
  private sharedStateOf(): SharedPlatformState {
    const { customerDb, notificationDb, bucket, customerKyb, notification } = this;
    const { db: paymentsDb, process: payments } = this.paymentsService;
    if (!customerDb || !notificationDb || !bucket || !paymentsDb || !customerKyb || !notification || !payments) {
      throw new Error('a shared platform runs every service');
    }
    return {
      adminToken: this.adminToken,
      identitySecretKey: this.identitySecretKey,
      notificationSecretKey: this.notificationSecretKey,
      topicPrefix: this.topicPrefix,
      pids: [this.identity, customerKyb, notification, payments, this.gateway].map(({ child }) => {
        if (child.pid === undefined) throw new Error('a shared platform process has no pid');
        return child.pid;
      }),
      ports: {
        identity: this.identityPort,
        customer: this.customerPort,
        notification: this.notificationPort,
        notificationMetrics: this.notificationMetricsPort,
        public: this.publicPort,
        admin: this.adminPort,
        payments: this.paymentsService.port,
      },
      databases: {
        identity: this.db.name,
        customerKyb: customerDb.name,
        notification: notificationDb.name,
        payments: paymentsDb.name,
      },
      bucket: bucket.name,
    };
  }

  /** Uses the shared platform an earlier suite of this worker started; fails if it no longer answers. */
  private async adopt(state: SharedPlatformState): Promise<void> {
    const { ports, databases } = state;
    [
      this.identityPort,
      this.customerPort,
      this.notificationPort,
      this.notificationMetricsPort,
      this.publicPort,
      this.adminPort,
      this.paymentsService.port,
    ] = [
      ports.identity,
      ports.customer,
      ports.notification,
      ports.notificationMetrics,
      ports.public,
      ports.admin,
      ports.payments,
    ];
    this.db = testDatabaseAt(databases.identity);
    this.customerDb = testDatabaseAt(databases.customerKyb);
    this.notificationDb = testDatabaseAt(databases.notification);
    this.paymentsService.db = testDatabaseAt(databases.payments);
    this.bucket = testBucketNamed(state.bucket);
    // A moment's NOT_SERVING (a readiness ping slower than its 1 s limit on a loaded machine) is not
    // a dead platform: it must answer ready within 20 s, as a probe would wait for it.
    await eventually(async () => {
      const ready = await fetch(`${this.publicUrl}/readyz`);
      if (ready.status !== 200) {
        throw new Error(`the worker's shared platform is not ready (${ready.status}): ${await ready.text()}`);
      }
    }, 20_000);
  }

  /** customer-kyb's environment: this platform's database, bucket, topic prefix and identity. */
  customerKybEnv(extra: Record<string, string> = {}): Record<string, string> {
    const { customerDb, bucket } = this;
    if (!customerDb || !bucket) throw new Error('customer-kyb is not part of this platform (customers: false)');
    return {
      CUSTOMER_GRPC_ADDRESS: `127.0.0.1:${this.customerPort}`,
      DATABASE_URL: customerDb.url,
      KAFKA_BROKERS: this.kafkaBrokers,
      KAFKA_TOPIC_PREFIX: this.topicPrefix,
      CORRIDOR_ENVIRONMENT: this.environment,
      IDENTITY_GRPC_ADDRESS: this.identityAddress,
      S3_ENDPOINT: bucket.endpoint,
      S3_REGION: bucket.region,
      S3_BUCKET: bucket.name,
      S3_FORCE_PATH_STYLE: String(bucket.forcePathStyle),
      S3_ACCESS_KEY_ID: bucket.accessKeyId,
      S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
      OUTBOX_POLL_INTERVAL_MS: '200',
      ...this.telemetryEnv(),
      ...this.options.customerKybEnv,
      ...extra,
    };
  }

  /** A collector of `customer.status_changed` on `<prefix>corridor.customer.v1`; stop it after use. */
  customerEvents(): Promise<CustomerEventLog> {
    return this.customers.events();
  }

  /** (Re)starts customer-kyb, for example after killing it. */
  async startCustomerKyb(extra: Record<string, string> = {}): Promise<ServiceProcess> {
    this.customerKyb = await startService({
      service: 'customer-kyb',
      root: this.rootOf('customer-kyb'),
      env: this.customerKybEnv(extra),
      ready: logged('customer-kyb listening'),
      supervised: this.supervised,
    });
    return this.customerKyb;
  }

  /** notification's environment: this platform's database and its own secret key. */
  notificationEnv(extra: Record<string, string> = {}): Record<string, string> {
    const { notificationDb } = this;
    if (!notificationDb) throw new Error('notification is not part of this platform (notifications: false)');
    return {
      NOTIFICATION_GRPC_ADDRESS: `127.0.0.1:${this.notificationPort}`,
      DATABASE_URL: notificationDb.url,
      CORRIDOR_ENVIRONMENT: this.environment,
      NOTIFICATION_SECRET_KEY: this.notificationSecretKey,
      KAFKA_BROKERS: this.kafkaBrokers,
      KAFKA_TOPIC_PREFIX: this.topicPrefix,
      // The consumer group is notification's default, <KAFKA_TOPIC_PREFIX>notification: this
      // platform's own, the same across restarts.
      METRICS_PORT: String(this.notificationMetricsPort),
      WEBHOOK_POLL_INTERVAL_MS: '200',
      ...this.telemetryEnv(),
      ...this.options.notificationEnv,
      ...extra,
    };
  }

  /** (Re)starts notification, for example after killing it. */
  async startNotification(extra: Record<string, string> = {}): Promise<ServiceProcess> {
    this.notification = await startService({
      service: 'notification',
      root: this.rootOf('notification'),
      env: this.notificationEnv(extra),
      ready: logged('notification listening'),
      supervised: this.supervised,
    });
    return this.notification;
  }

  private gatewayEnvironment(
    publicPort: number,
    adminPort: number,
    extra: Record<string, string>,
  ): Record<string, string> {
    return {
      GATEWAY_PUBLIC_PORT: String(publicPort),
      GATEWAY_ADMIN_PORT: String(adminPort),
      ADMIN_TOKEN: this.adminToken,
      IDENTITY_GRPC_ADDRESS: this.identityAddress,
      CUSTOMER_GRPC_ADDRESS: this.customerAddress,
      NOTIFICATION_GRPC_ADDRESS: this.notificationAddress,
      PAYMENTS_GRPC_ADDRESS: this.paymentsAddress,
      CORRIDOR_ENVIRONMENT: this.environment,
      // Suites share one Redis: each platform counts its own rate-limit windows and caches.
      REDIS_KEY_PREFIX: this.redisKeyPrefix,
      // The admin API's invitation_url names the dashboard, as identity's mails do.
      ...(this.dashboardPort === 0 ? {} : { DASHBOARD_URL: this.dashboardUrl }),
      ...this.telemetryEnv(),
      ...this.options.gatewayEnv,
      ...extra,
    };
  }

  /**
   * A gateway is started once it listens, has identity's signing keys and is connected to Redis:
   * until then it rightly answers every authenticated call 503 (its Redis connection can take longer
   * than the keys on a loaded machine), which a test must not mistake for the behaviour it checks.
   * Not /readyz as a whole (a service may be left out), and not Redis when a test gives the gateway
   * a Redis of its own (REDIS_URL), which may be dead on purpose.
   */
  private spawnGateway(publicPort: number, adminPort: number, extra: Record<string, string>): Promise<ServiceProcess> {
    const env = this.gatewayEnvironment(publicPort, adminPort, extra);
    const needed = env.REDIS_URL === undefined ? ['signing_keys', 'redis'] : ['signing_keys'];
    return startService({
      service: 'gateway',
      root: this.rootOf('gateway'),
      env,
      supervised: this.supervised,
      ready: async (process) => {
        await logged('gateway listening')(process);
        const readiness = (await (await fetch(`http://127.0.0.1:${publicPort}/readyz`)).json()) as {
          dependencies?: Record<string, string>;
        };
        const waiting = needed.filter((dependency) => readiness.dependencies?.[dependency] !== 'ok');
        if (waiting.length > 0) throw new Error(`gateway not ready yet: ${waiting.join(', ')}`);
      },
    });
  }

  /**
   * Another gateway process against the same identity and Redis (a second replica), on ports of its
   * own; `env` overrides the platform's gateway environment (e.g. REDIS_URL of a dead Redis).
   * Stopped with the platform.
   */
  async startGateway(env: Record<string, string> = {}): Promise<GatewayProcess> {
    const [publicPort, adminPort] = await Promise.all([freePort(), freePort()]);
    const process = await this.spawnGateway(publicPort, adminPort, env);
    const publicUrl = `http://127.0.0.1:${publicPort}`;
    const adminUrl = `http://127.0.0.1:${adminPort}`;
    this.extraProcesses.push(process);
    return {
      process,
      publicUrl,
      adminUrl,
      api: (path, token, init = {}) => this.apiAt(publicUrl, path, token, init),
      admin: (path, init = {}) => this.adminAt(adminUrl, path, init),
      stop: async () => void (await process.kill()),
    };
  }

  identityEnv(extra: Record<string, string> = {}): Record<string, string> {
    return {
      IDENTITY_GRPC_ADDRESS: `127.0.0.1:${this.identityPort}`,
      DATABASE_URL: this.db.url,
      KAFKA_BROKERS: this.kafkaBrokers,
      KAFKA_TOPIC_PREFIX: this.topicPrefix,
      OUTBOX_POLL_INTERVAL_MS: '200',
      IDENTITY_SECRET_KEY: this.identitySecretKey,
      CORRIDOR_ENVIRONMENT: this.environment,
      ...this.mailEnv(),
      ...this.telemetryEnv(),
      ...extra,
    };
  }

  /** identity's mail relay and links, with a dashboard: the platform's MailReceiver, the dashboard's origin. */
  private mailEnv(): Record<string, string> {
    if (!this.mail) return {};
    return {
      SMTP_URL: this.mail.smtpUrl,
      MAIL_FROM: 'Corridor <no-reply@corridor.test>',
      MAIL_POLL_INTERVAL_MS: '200',
      DASHBOARD_URL: this.dashboardUrl,
    };
  }

  /** The platform's dashboard origin (what identity's mails and the admin API's invitation_url name). */
  get dashboardUrl(): string {
    if (this.dashboardPort === 0) throw new Error('the dashboard is not part of this platform (dashboard: true)');
    return `http://127.0.0.1:${this.dashboardPort}`;
  }

  /** The dashboard's environment: this platform's services, its gateway's Redis prefix, its public URL. */
  dashboardEnv(port: number, extra: Record<string, string> = {}): Record<string, string> {
    return {
      DASHBOARD_PORT: String(port),
      DASHBOARD_ORIGIN: `http://127.0.0.1:${port}`,
      API_BASE_URL: this.publicUrl,
      CORRIDOR_ENVIRONMENT: this.environment,
      IDENTITY_GRPC_ADDRESS: this.identityAddress,
      CUSTOMER_GRPC_ADDRESS: this.customerAddress,
      NOTIFICATION_GRPC_ADDRESS: this.notificationAddress,
      PAYMENTS_GRPC_ADDRESS: this.paymentsAddress,
      // The gateway's prefix: the dashboard's rotations and revocations reach it through the access cache.
      REDIS_KEY_PREFIX: this.redisKeyPrefix,
      // Short enough for a suite to see a session end; a suite may set its own.
      SESSION_IDLE_SECONDS: '600',
      SESSION_ABSOLUTE_SECONDS: '3600',
      ...this.telemetryEnv(),
      ...this.options.dashboardEnv,
      ...extra,
    };
  }

  /** A dashboard is started once it listens and its /readyz says Redis and identity answer. */
  private spawnDashboard(port: number, extra: Record<string, string>): Promise<DashboardProcess> {
    const url = `http://127.0.0.1:${port}`;
    return startService({
      service: 'dashboard',
      root: this.rootOf('dashboard'),
      env: this.dashboardEnv(port, extra),
      supervised: this.supervised,
      ready: async (process) => {
        await logged('dashboard listening')(process);
        const ready = await fetch(`${url}/readyz`);
        if (ready.status !== 200) throw new Error(`dashboard not ready yet: ${await ready.text()}`);
      },
    }).then((process) => ({ process, url, stop: async () => void (await process.kill()) }));
  }

  /**
   * Another dashboard process against this platform, on a port (and so an origin) of its own, with
   * `env` overriding the platform's dashboard environment (e.g. SESSION_IDLE_SECONDS). Its sessions
   * are in the same Redis keys as the platform's dashboard. Stopped with the platform.
   */
  async startDashboard(env: Record<string, string> = {}): Promise<DashboardProcess> {
    const dashboard = await this.spawnDashboard(await freePort(), env);
    this.extraProcesses.push(dashboard.process);
    return dashboard;
  }

  /** (Re)starts identity, for example after killing it. */
  async startIdentity(extra: Record<string, string> = {}): Promise<ServiceProcess> {
    this.identity = await startService({
      service: 'identity',
      root: this.rootOf('identity'),
      env: this.identityEnv(extra),
      ready: logged('identity listening'),
      supervised: this.supervised,
    });
    return this.identity;
  }

  /**
   * Another identity process against the same database (so the same signing key and credentials),
   * on extra.IDENTITY_GRPC_ADDRESS or a free port, with `extra` environment (e.g. CLOCK_OFFSET_SECONDS).
   * Its outbox relay is off: the platform's identity publishes. Point a gateway at it with
   * `startGateway({ IDENTITY_GRPC_ADDRESS: address })`. Stopped with the platform.
   */
  async startIdentityReplica(
    extra: Record<string, string> = {},
  ): Promise<{ process: ServiceProcess; address: string }> {
    const address = extra.IDENTITY_GRPC_ADDRESS ?? `127.0.0.1:${await freePort()}`;
    const process = await startService({
      service: 'identity',
      root: this.rootOf('identity'),
      env: this.identityEnv({
        ...this.options.identityEnv,
        OUTBOX_RELAY_ENABLED: 'false',
        ...extra,
        IDENTITY_GRPC_ADDRESS: address,
      }),
      ready: logged('identity listening'),
    });
    this.extraProcesses.push(process);
    return { process, address };
  }

  /**
   * Stops identity and starts it again with `extra` environment (e.g. CLOCK_OFFSET_SECONDS), then
   * waits until the gateway reaches it again.
   */
  async restartIdentity(extra: Record<string, string> = {}): Promise<ServiceProcess> {
    await this.identity.kill();
    await this.startIdentity({ ...this.options.identityEnv, ...extra });
    await eventually(async () => {
      const ready = await fetch(`${this.publicUrl}/readyz`);
      if (ready.status !== 200) throw new Error(`gateway not ready: ${await ready.text()}`);
    }, 15_000);
    return this.identity;
  }

  /** The process of a service (the first of its replicas); undefined when the platform runs none. */
  processOf(service: PlatformService): ServiceProcess | undefined {
    switch (service) {
      case 'gateway':
        return this.gateway;
      case 'identity':
        return this.identity;
      case 'customer-kyb':
        return this.customerKyb;
      case 'notification':
        return this.notification;
      case 'payments':
        return this.paymentsService.process;
      case 'dashboard':
        return this.dashboard?.process;
    }
  }

  /**
   * Runs `service` from another root from now on (the version-skew suite's next pair): stops it,
   * drops its database for a new one its new root's migrations made (a release runs on the schema
   * of its own migrations), starts it on the same port, and waits until the gateway and the
   * dashboard reach every service again. A platform of the suite's own, one process of each.
   */
  async moveService(service: PlatformService, root: string): Promise<void> {
    if (this.shared || (this.options.replicas ?? 1) > 1) {
      throw new Error('moveService: only on a platform of the suite’s own with one process of each service');
    }
    this.roots[service] = root;
    const adminUrl = this.postgresAdminUrl;
    switch (service) {
      case 'gateway':
        await this.gateway.kill();
        this.gateway = await this.spawnGateway(this.publicPort, this.adminPort, {});
        break;
      case 'dashboard':
        await this.dashboard?.stop();
        this.dashboard = await this.spawnDashboard(this.dashboardPort, {});
        break;
      case 'identity':
        await this.identity.kill();
        await this.db.drop();
        this.db = await migratedDatabase(service, adminUrl, root);
        await this.startIdentity(this.options.identityEnv);
        // A new database signs with new keys, which a running gateway asks for at most every 10 s
        // (an unknown key id): started again, it loads them now. A release keeps its database.
        await this.gateway.kill();
        this.gateway = await this.spawnGateway(this.publicPort, this.adminPort, {});
        break;
      case 'customer-kyb':
        await this.customerKyb?.kill();
        await this.customerDb?.drop();
        this.customerDb = await migratedDatabase(service, adminUrl, root);
        await this.startCustomerKyb();
        break;
      case 'notification':
        await this.notification?.kill();
        await this.notificationDb?.drop();
        this.notificationDb = await migratedDatabase(service, adminUrl, root);
        await this.startNotification();
        break;
      case 'payments':
        await this.paymentsService.kill();
        await this.paymentsService.drop();
        await this.paymentsService.createDatabase();
        await this.paymentsService.start();
        break;
    }
    await eventually(async () => {
      for (const url of [this.publicUrl, ...(this.dashboard ? [this.dashboard.url] : [])]) {
        const ready = await fetch(`${url}/readyz`);
        if (ready.status !== 200) throw new Error(`${url} not ready: ${await ready.text()}`);
      }
    }, 30_000);
  }

  /** OpenTelemetry export settings of every service, when the suite collects spans. */
  telemetryEnv(): Record<string, string> {
    return this.options.otlpEndpoint
      ? { OTEL_EXPORTER_OTLP_ENDPOINT: this.options.otlpEndpoint, OTEL_BSP_SCHEDULE_DELAY: '200' }
      : {};
  }

  /** A call to the admin listener with the admin token. */
  admin(path: string, init: RequestInit = {}): Promise<Response> {
    return this.adminAt(this.adminUrl, path, init);
  }

  private adminAt(adminUrl: string, path: string, init: RequestInit): Promise<Response> {
    return fetch(`${adminUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${this.adminToken}`, 'content-type': 'application/json', ...init.headers },
    });
  }

  /** An admin call that must answer `status`; returns the JSON body. */
  private async adminJson<T>(path: string, init: RequestInit, status: number, what: string): Promise<T> {
    const response = await this.admin(path, init);
    if (response.status !== status) throw new Error(`${what}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** PATCH /admin/businesses/{id}; the business as the admin API returns it. */
  patchBusiness(businessId: string, changes: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.adminJson(
      `/admin/businesses/${businessId}`,
      { method: 'PATCH', body: JSON.stringify(changes) },
      200,
      'patch business',
    );
  }

  /** POST /admin/credentials/{client_id}/rotate; the new secret with the credentials. */
  rotateCredentials(clientId: string, grant: { bundles?: string[]; scopes?: string[] } = {}): Promise<Credentials> {
    return this.adminJson(
      `/admin/credentials/${clientId}/rotate`,
      { method: 'POST', body: JSON.stringify(grant) },
      200,
      'rotate credentials',
    );
  }

  /** DELETE /admin/credentials/{client_id}. */
  revokeCredentials(clientId: string): Promise<Record<string, unknown>> {
    return this.adminJson(`/admin/credentials/${clientId}`, { method: 'DELETE' }, 200, 'revoke credentials');
  }

  async createBusiness(name: string): Promise<{ id: string; name: string }> {
    const response = await this.admin('/admin/businesses', { method: 'POST', body: JSON.stringify({ name }) });
    if (response.status !== 201) throw new Error(`create business: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string; name: string };
  }

  /** POST /admin/businesses/{id}/credentials; default bundle full-access. */
  async createCredentials(
    businessId: string,
    grant: { bundles?: string[]; scopes?: string[] } = {},
  ): Promise<Credentials> {
    const response = await this.admin(`/admin/businesses/${businessId}/credentials`, {
      method: 'POST',
      body: JSON.stringify(grant),
    });
    if (response.status !== 201) throw new Error(`create credentials: ${response.status} ${await response.text()}`);
    return (await response.json()) as Credentials;
  }

  /** POST /oauth/token with client credentials in the body; the raw response. */
  requestToken(
    credentials: { client_id: string; client_secret: string },
    scope?: string,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', ...credentials });
    if (scope !== undefined) form.set('scope', scope);
    return fetch(`${this.publicUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: form,
    });
  }

  /** POST /oauth/token with any body and headers (no defaults): for malformed requests. */
  postToken(body: string | URLSearchParams, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.publicUrl}/oauth/token`, { method: 'POST', headers, body });
  }

  /** An access token for the credentials and scope, or an error naming why there is none. */
  async accessToken(credentials: { client_id: string; client_secret: string }, scope?: string): Promise<string> {
    const response = await this.requestToken(credentials, scope);
    if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
    return ((await response.json()) as TokenResponse).access_token;
  }

  /** A business with credentials and a token carrying the given scopes. */
  async tokenFor(
    scopes: string[],
    grant: { bundles?: string[]; scopes?: string[] } = {},
  ): Promise<{ token: string; credentials: Credentials; businessId: string }> {
    const business = await this.createBusiness(`Platform ${randomBytes(3).toString('hex')}`);
    const credentials = await this.createCredentials(business.id, grant);
    const token = await this.accessToken(credentials, scopes.join(' '));
    return { token, credentials, businessId: business.id };
  }

  /** A call to the public API with a bearer token. */
  api(path: string, token: string | undefined, init: RequestInit = {}): Promise<Response> {
    return this.apiAt(this.publicUrl, path, token, init);
  }

  private apiAt(publicUrl: string, path: string, token: string | undefined, init: RequestInit): Promise<Response> {
    return fetch(`${publicUrl}${path}`, {
      ...init,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...init.headers },
    });
  }

  /** Stops every process and drops every database and bucket; waits for a start still under way. */
  async stop(): Promise<void> {
    if (this.shared) {
      // The worker's platform stays for later suites; what this suite added to it does not.
      await Promise.all(this.extraProcesses.map((process) => process.kill()));
      return;
    }
    // A start that failed has already stopped what it started.
    const started = await this.starting?.then(
      () => true,
      () => false,
    );
    this.starting = undefined;
    if (started !== false) await this.stopStarted();
  }

  private async stopStarted(): Promise<void> {
    await Promise.all([
      ...this.extraProcesses.map((process) => process.kill()),
      this.dashboard?.stop(),
      this.gateway?.kill(),
      this.identity?.kill(),
      this.customerKyb?.kill(),
      this.notification?.kill(),
      this.paymentsService.kill(),
    ]);
    await Promise.all([
      this.db?.drop(),
      this.customerDb?.drop(),
      this.bucket?.drop(),
      this.notificationDb?.drop(),
      this.paymentsService.drop(),
      this.mail?.stop(),
    ]);
  }
}

/** Waits for every step to end, then throws the first failure: no step is left running unseen. */
async function settled(steps: (Promise<unknown> | undefined)[]): Promise<void> {
  const results = await Promise.allSettled(steps);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

export interface ExpectedError {
  /** The machine code (DESIGN.md error body). */
  code?: string;
  /** What the message must say. */
  message?: RegExp;
  /** RFC 6749 section 5.2 `error` (token endpoint only); then error_description must equal message. */
  error?: string;
}

/**
 * The public error contract (DESIGN.md, seed 7): the status, a JSON body with status false and a
 * message naming the problem, an x-request-id, and nothing internal (no HTML, no stack trace).
 * Returns the body.
 */
export async function expectError(
  response: Response,
  status: number,
  expected: ExpectedError = {},
): Promise<Record<string, unknown>> {
  const text = await response.text();
  const context = `${response.status} ${response.headers.get('content-type') ?? ''} ${text}`;
  if (response.status !== status) throw new Error(`expected ${status}, got ${context}`);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(text).not.toMatch(/<html|<!DOCTYPE|\n\s+at |node_modules|\/work\//i);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body.status).toBe(false);
  expect(typeof body.message).toBe('string');
  expect(String(body.message).length).toBeGreaterThan(0);
  if (expected.code !== undefined) expect(body.code).toBe(expected.code);
  if (expected.message) expect(String(body.message)).toMatch(expected.message);
  if (expected.error !== undefined) {
    expect(body.error).toBe(expected.error);
    expect(body.error_description).toBe(body.message);
  }
  return body;
}

/** The claims of a JWT, read without verifying it (tests inspect what identity minted). */
export function jwtParts(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header = '', payload = ''] = token.split('.');
  const decode = (part: string) =>
    JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: decode(header), payload: decode(payload) };
}

/** What the tests need of an entry of the gateway's route table (services/gateway/src/public/routes.ts). */
export interface RouteEntry {
  method: string;
  /** OpenAPI form, e.g. /api/external/customer/{id}. */
  path: string;
  scope: string | null;
  operationId: string;
}

/** The route's path with every {parameter} filled with a well-formed id that names nothing. */
export const concretePath = (route: RouteEntry) =>
  route.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');

/** Calls one route of the table with a token: an empty JSON object as the body where it takes one. */
export function callRoute(
  route: RouteEntry,
  token: string | undefined,
  call: (path: string, token: string | undefined, init: RequestInit) => Promise<Response>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const withBody = !['get', 'delete'].includes(route.method);
  return call(concretePath(route), token, {
    method: route.method.toUpperCase(),
    headers: { ...(withBody ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(withBody ? { body: '{}' } : {}),
  });
}

/**
 * Rate-limit windows are fixed clock minutes (of Redis, which runs on this host). Waits for the next
 * minute when fewer than `seconds` are left in this one, so a burst cannot straddle two windows.
 */
export async function awaitRoomInMinute(seconds: number, secondsLeft = 60 - ((Date.now() / 1000) % 60)): Promise<void> {
  if (secondsLeft < seconds) await new Promise((resolve) => setTimeout(resolve, (secondsLeft + 0.5) * 1000));
}
