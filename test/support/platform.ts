import { randomBytes } from 'node:crypto';
import {
  createTestDatabase,
  createTopics,
  freePort,
  logged,
  startService,
  uniqueSuffix,
  type ServiceProcess,
  type TestDatabase,
} from '@corridor/testing';

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

export interface PlatformOptions {
  environment?: 'sandbox' | 'production';
  /** Extra environment for the gateway. */
  gatewayEnv?: Record<string, string>;
  /** Collector endpoint the services export spans to. */
  otlpEndpoint?: string;
  /** Extra environment for identity's first start. */
  identityEnv?: Record<string, string>;
}

/**
 * The gateway and identity as real processes, on free ports, with a database and Kafka topics
 * of their own: suites never see each other's rows or events, nor a running `npm start`.
 */
export class Platform {
  identity!: ServiceProcess;
  gateway!: ServiceProcess;
  db!: TestDatabase;
  readonly adminToken = randomBytes(24).toString('hex');
  readonly identitySecretKey = randomBytes(32).toString('hex');
  readonly topicPrefix = `e2e-${uniqueSuffix()}.`;
  readonly identityTopic = `${this.topicPrefix}corridor.identity.v1`;
  private identityPort = 0;
  private publicPort = 0;
  private adminPort = 0;

  constructor(private readonly options: PlatformOptions = {}) {}

  get environment(): 'sandbox' | 'production' {
    return this.options.environment ?? 'sandbox';
  }

  get publicUrl() {
    return `http://127.0.0.1:${this.publicPort}`;
  }
  get adminUrl() {
    return `http://127.0.0.1:${this.adminPort}`;
  }

  async start(): Promise<this> {
    this.db = await createTestDatabase('e2e_identity');
    await createTopics([this.identityTopic]);
    [this.identityPort, this.publicPort, this.adminPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const migrate = await startService({
      service: 'identity',
      script: 'dist/migrate.js',
      args: ['up'],
      env: this.identityEnv(),
    });
    const code = await migrate.exited;
    if (code !== 0) throw new Error(`identity migrations failed (${code}):\n${migrate.output()}`);
    await this.startIdentity(this.options.identityEnv);
    this.gateway = await startService({
      service: 'gateway',
      env: {
        GATEWAY_PUBLIC_PORT: String(this.publicPort),
        GATEWAY_ADMIN_PORT: String(this.adminPort),
        ADMIN_TOKEN: this.adminToken,
        IDENTITY_GRPC_ADDRESS: `127.0.0.1:${this.identityPort}`,
        CORRIDOR_ENVIRONMENT: this.environment,
        ...this.telemetryEnv(),
        ...this.options.gatewayEnv,
      },
      ready: logged('gateway listening'),
    });
    return this;
  }

  identityEnv(extra: Record<string, string> = {}): Record<string, string> {
    return {
      IDENTITY_GRPC_ADDRESS: `127.0.0.1:${this.identityPort}`,
      DATABASE_URL: this.db.url,
      KAFKA_TOPIC_PREFIX: this.topicPrefix,
      OUTBOX_POLL_INTERVAL_MS: '200',
      IDENTITY_SECRET_KEY: this.identitySecretKey,
      CORRIDOR_ENVIRONMENT: this.environment,
      ...this.telemetryEnv(),
      ...extra,
    };
  }

  /** (Re)starts identity, for example after killing it. */
  async startIdentity(extra: Record<string, string> = {}): Promise<ServiceProcess> {
    this.identity = await startService({
      service: 'identity',
      env: this.identityEnv(extra),
      ready: logged('identity listening'),
    });
    return this.identity;
  }

  private telemetryEnv(): Record<string, string> {
    return this.options.otlpEndpoint
      ? { OTEL_EXPORTER_OTLP_ENDPOINT: this.options.otlpEndpoint, OTEL_BSP_SCHEDULE_DELAY: '200' }
      : {};
  }

  /** A call to the admin listener with the admin token. */
  admin(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.adminUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${this.adminToken}`, 'content-type': 'application/json', ...init.headers },
    });
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

  /** A business with credentials and a token carrying the given scopes. */
  async tokenFor(
    scopes: string[],
    grant: { bundles?: string[]; scopes?: string[] } = {},
  ): Promise<{ token: string; credentials: Credentials; businessId: string }> {
    const business = await this.createBusiness(`Platform ${randomBytes(3).toString('hex')}`);
    const credentials = await this.createCredentials(business.id, grant);
    const response = await this.requestToken(credentials, scopes.join(' '));
    if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
    return { token: ((await response.json()) as TokenResponse).access_token, credentials, businessId: business.id };
  }

  /** A call to the public API with a bearer token. */
  api(path: string, token: string | undefined, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.publicUrl}${path}`, {
      ...init,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...init.headers },
    });
  }

  async stop(): Promise<void> {
    await Promise.all([this.gateway?.kill(), this.identity?.kill()]);
    await this.db?.drop();
  }
}
