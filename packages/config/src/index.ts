import { z } from 'zod';

export { z };
export { env } from './variables.js';
export * from './shared.js';

/** Thrown when the environment does not satisfy a service's schema; names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Parses the environment once against the service's schema. Each key of the schema is the
 * variable's name, so every error names the variable to fix.
 */
export function parseConfig<S extends z.ZodRawShape>(shape: S, env: Env = process.env): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const variable = String(issue.path[0] ?? '(environment)');
    const value = env[variable];
    const shown = value === undefined ? 'missing' : `got ${JSON.stringify(value)}`;
    return `${variable}: ${issue.message} (${shown})`;
  });
  throw new ConfigError(problems);
}

/**
 * parseConfig for a process entry point: on a bad environment it prints which variable is wrong
 * and exits with status 78 (EX_CONFIG) before anything starts.
 */
export function loadConfig<S extends z.ZodRawShape>(
  service: string,
  shape: S,
  env: Env = process.env,
): z.infer<z.ZodObject<S>> {
  try {
    return parseConfig(shape, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${service}: refusing to start, ${error.message}\n`);
    process.exit(78);
  }
}
