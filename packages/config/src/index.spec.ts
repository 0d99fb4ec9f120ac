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
