import { startService } from '@corridor/testing';

describe('a bad environment stops a service at start, naming the variable', () => {
  // Each case names a valid environment unless it is the variable under test.
  const expectRefusal = async (
    service: string,
    env: Record<string, string>,
    variable: string,
    withEnvironment = true,
  ) => {
    const process = await startService({
      service,
      env: withEnvironment ? { CORRIDOR_ENVIRONMENT: 'sandbox', ...env } : env,
    });
    expect(await process.exited).toBe(78);
    expect(process.output()).toMatch(
      new RegExp(`${service}: refusing to start, invalid configuration:[\\s\\S]*- ${variable}: `),
    );
  };

  it('gateway: a port that is not a number', () =>
    expectRefusal('gateway', { ADMIN_TOKEN: 'a'.repeat(32), GATEWAY_PUBLIC_PORT: 'eighty' }, 'GATEWAY_PUBLIC_PORT'));

  it('gateway: a missing ADMIN_TOKEN', () => expectRefusal('gateway', {}, 'ADMIN_TOKEN'));

  it('gateway: an ADMIN_TOKEN too short to be a secret', () =>
    expectRefusal('gateway', { ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'));

  it('identity: a broker list with a bad entry', () =>
    expectRefusal('identity', { KAFKA_BROKERS: '127.0.0.1:9092,kafka' }, 'KAFKA_BROKERS'));

  it('identity: an unknown environment', () =>
    expectRefusal('identity', { CORRIDOR_ENVIRONMENT: 'staging' }, 'CORRIDOR_ENVIRONMENT'));

  it('payments: no CORRIDOR_ENVIRONMENT (never taken for sandbox)', () =>
    expectRefusal('payments', {}, 'CORRIDOR_ENVIRONMENT', false));

  it('identity: a database URL that is not a URL', () =>
    expectRefusal('identity', { DATABASE_URL: 'not a url' }, 'DATABASE_URL'));
});
