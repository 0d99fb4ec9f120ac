import { createRequire } from 'node:module';
import { openDatabase } from '../../packages/db/dist/index.js';
import { readCustomer } from '../../services/customer-kyb/dist/customers/customer-view.js';
import { customerKybDatabase } from '../../services/customer-kyb/dist/database.js';
import { AccessGuard } from '../../services/gateway/dist/auth/access-guard.js';
import { identityDatabase } from '../../services/identity/dist/database.js';
import { IdentitySecrets } from '../../services/identity/dist/secrets/identity-secrets.js';
import { issueToken } from '../../services/identity/dist/tokens/issue-token.js';
import { loadSigningKey } from '../../services/identity/dist/tokens/signing-keys.js';

/**
 * The parts of a request, called directly from this process with nothing around them: the gateway's
 * Redis guard (what whoami adds to /healthz), customer-kyb's read statement (what a customer read
 * adds to whoami and a gRPC call) and identity's client-credentials grant (what a token adds to
 * them). Their CPU per request bounds what the whole path can reach on this machine (goals.ts).
 */
export interface RequestParts {
  /** One guard check (EVALSHA of the gateway's script) for a reading business, in turn. */
  guardCall(): Promise<unknown>;
  /** One read of a reading business's customer through customer-kyb's own statement and pool. */
  customerStatementCall(): Promise<unknown>;
  /** One grant through identity's own use case: its statement, the secret's check, the signature. */
  grantCall(): Promise<unknown>;
  stop(): Promise<void>;
}

/** A reading business as the gateway and customer-kyb know it, from its token's claims. */
export interface ReadingCaller {
  businessId: string;
  clientId: string;
  generation: number;
  customerId: string;
}

interface RedisModule {
  createClient(options: { url: string }): ConstructorParameters<typeof AccessGuard>[0] & {
    connect(): Promise<unknown>;
    quit(): Promise<unknown>;
  };
}
/** The Redis client the gateway resolves (its dependency, not the bench's). */
const redisModule = createRequire(new URL('../../services/gateway/package.json', import.meta.url))(
  'redis',
) as RedisModule;

export async function startRequestParts(options: {
  redisUrl: string;
  redisKeyPrefix: string;
  customerDatabaseUrl: string;
  callers: ReadingCaller[];
  identityDatabaseUrl: string;
  identitySecretKey: string;
  credentials: { client_id: string; client_secret: string };
}): Promise<RequestParts> {
  const { callers } = options;
  if (callers.length === 0) throw new Error('no reading business to call as');
  const redis = redisModule.createClient({ url: options.redisUrl });
  await redis.connect();
  const guard = new AccessGuard(redis, 'sandbox', options.redisKeyPrefix);
  const orm = await openDatabase(customerKybDatabase(options.customerDatabaseUrl));
  const identity = await openDatabase(identityDatabase(options.identityDatabaseUrl));
  const secrets = new IdentitySecrets(options.identitySecretKey);
  const now = () => new Date();
  const signingKey = await loadSigningKey(identity, secrets, now);
  const grant = {
    clientId: options.credentials.client_id,
    clientSecret: options.credentials.client_secret,
    scope: 'customer:read',
    clientIp: '127.0.0.1',
  };
  const tokenSettings = {
    environment: 'sandbox',
    issuer: 'bench',
    audience: 'bench',
    lifetimeSeconds: 3600,
    now,
  } as const;
  let next = 0;
  const nextCaller = (): ReadingCaller => callers[(next += 1) % callers.length] as ReadingCaller;
  return {
    guardCall: async () => {
      const caller = nextCaller();
      const { kind } = await guard.check(caller.clientId, caller.businessId, caller.generation);
      // A cache entry gone would end the script early and flatter it; a spent window (the phases
      // before used the businesses' limits) reads everything whoami's check reads.
      if (kind !== 'ok' && kind !== 'limited_minute' && kind !== 'limited_hour')
        throw new Error(`guard verdict ${kind}`);
    },
    customerStatementCall: async () => {
      const caller = nextCaller();
      const customer = await readCustomer(orm.em.fork(), caller.customerId, caller.businessId);
      if (!customer) throw new Error(`customer ${caller.customerId} not found`);
    },
    grantCall: () => issueToken(identity.em.fork(), secrets, signingKey, tokenSettings, grant),
    async stop() {
      await Promise.allSettled([redis.quit(), orm.close(), identity.close()]);
    },
  };
}
