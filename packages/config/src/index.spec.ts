import { ConfigError, env, parseConfig, z } from './index.js';

const shape = {
  PORT: env.port(8080),
  KAFKA_BROKERS: env.brokers('127.0.0.1:9092'),
  OUTBOX_ENABLED: env.boolean(true),
  ADMIN_TOKEN: env.secret(16),
  CORRIDOR_ENVIRONMENT: env.environment(),
  NAME: z.string(),
};

describe('parseConfig', () => {
  it('applies defaults and coerces types', () => {
    const config = parseConfig(shape, {
      ADMIN_TOKEN: 'x'.repeat(16),
      NAME: 'identity',
      CORRIDOR_ENVIRONMENT: 'sandbox',
    });
    expect(config).toEqual({
      PORT: 8080,
      KAFKA_BROKERS: ['127.0.0.1:9092'],
      OUTBOX_ENABLED: true,
      ADMIN_TOKEN: 'x'.repeat(16),
      CORRIDOR_ENVIRONMENT: 'sandbox',
      NAME: 'identity',
    });
  });

  it('names every bad variable with its value', () => {
    const parse = () =>
      parseConfig(shape, {
        PORT: 'eighty',
        OUTBOX_ENABLED: 'yes',
        ADMIN_TOKEN: 'short',
        NAME: 'x',
        CORRIDOR_ENVIRONMENT: 'production',
      });
    expect(parse).toThrow(ConfigError);
    try {
      parse();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/^PORT: .*got "eighty"/m);
      expect(problems).toMatch(/^OUTBOX_ENABLED: must be true, false, 1 or 0 \(got "yes"\)/m);
      expect(problems).toMatch(/^ADMIN_TOKEN: must be at least 16 characters/m);
    }
  });

  it('reports a missing required variable as missing', () => {
    expect(() => parseConfig({ NAME: z.string() }, {})).toThrow(/NAME: .*\(missing\)/);
  });

  it('requires CORRIDOR_ENVIRONMENT: a missing one is never taken for sandbox', () => {
    const valid = { ADMIN_TOKEN: 'x'.repeat(16), NAME: 'n' };
    expect(() => parseConfig(shape, valid)).toThrow(
      /^ {2}- CORRIDOR_ENVIRONMENT: is required: sandbox or production .*\(missing\)$/m,
    );
    expect(() => parseConfig(shape, { ...valid, CORRIDOR_ENVIRONMENT: 'staging' })).toThrow(
      /CORRIDOR_ENVIRONMENT: must be sandbox or production \(got "staging"\)/,
    );
    expect(parseConfig(shape, { ...valid, CORRIDOR_ENVIRONMENT: 'production' }).CORRIDOR_ENVIRONMENT).toBe(
      'production',
    );
  });

  it('takes one gRPC target, or several replicas as IPv4 ip:port, naming what else it refuses', () => {
    const targets = { target: env.grpcTarget('127.0.0.1:50051') };
    const target = (value: string) => parseConfig(targets, { target: value }).target;
    expect(target('identity.corridor.svc:50051')).toBe('identity.corridor.svc:50051');
    expect(target('127.0.0.1:50051,127.0.0.1:50151')).toBe('127.0.0.1:50051,127.0.0.1:50151');
    for (const bad of ['identity', '127.0.0.1:50051,identity:50151', '127.0.0.1:50051,', 'a b:1']) {
      expect(() => target(bad)).toThrow(/target: must be host:port, or several IPv4 ip:port separated by commas/);
    }
  });

  it('refuses a broker list with a bad entry', () => {
    expect(() =>
      parseConfig(shape, {
        KAFKA_BROKERS: 'a:1,b',
        ADMIN_TOKEN: 'x'.repeat(16),
        NAME: 'n',
        CORRIDOR_ENVIRONMENT: 'sandbox',
      }),
    ).toThrow(/KAFKA_BROKERS: each broker must be host:port/);
  });
});
