import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';

/**
 * Each service chart sets exactly its service's configuration (issue 10 point 8, decision 0022). The
 * config shape a service exports (services/<name>/dist/config.js, built) is the truth; the chart's
 * values.yaml, values.schema.json and environment files are held to it.
 */
const root = join(import.meta.dirname, '..', '..');
const environments = readdirSync(join(root, 'helm/environments'));
const services = readdirSync(join(root, 'services'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** A zod schema, as far as this spec uses it (test/ does not depend on zod). */
interface Variable {
  safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } };
}
type Shape = Record<string, Variable>;
type Json = Record<string, unknown>;

const object = (value: unknown): Json => (value !== null && typeof value === 'object' ? (value as Json) : {});
const names = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v) => typeof v === 'string') : []);
const readYaml = (path: string): Json => object(parse(readFileSync(join(root, path), 'utf8')));
const sorted = (list: Iterable<string>) => [...new Set(list)].sort();

/** Variables read by others than the service's config: the OpenTelemetry SDK and Node. */
const readByOthers = (name: string) => name === 'NODE_OPTIONS' || /^OTEL_[A-Z0-9_]+$/.test(name);

/** What the ConfigMap holds for a value of `env` (helm/charts/lib/templates/_env.tpl); null: left out. */
const rendered = (value: unknown): string | undefined =>
  value === null || value === undefined
    ? undefined
    : typeof value === 'number'
      ? String(Math.trunc(value))
      : String(value);

async function configShape(service: string): Promise<Shape> {
  const module = object(await import(pathToFileURL(join(root, 'services', service, 'dist/config.js')).href));
  const exported = Object.keys(module).filter((name) => name.endsWith('ConfigShape'));
  if (exported.length !== 1)
    throw new Error(`services/${service}/src/config.ts exports ${exported.length} *ConfigShape`);
  return module[exported[0]!] as Shape;
}

interface Chart {
  shape: Shape;
  /** The values schema's names: plain variables, Secret variables, variables a port sets. */
  schema: { env: string[]; secretEnv: string[]; ports: string[] };
  /** values.yaml, then each environment file's part for this chart. */
  values: { source: string; env: Json; secretEnv: string[]; ports: Json[] }[];
}

async function chart(service: string): Promise<Chart> {
  const schema = object(JSON.parse(readFileSync(join(root, 'helm/charts', service, 'values.schema.json'), 'utf8')));
  const properties = object(schema.properties);
  const port = object(object(object(properties.ports).items).properties);
  const values = [
    { source: `helm/charts/${service}/values.yaml`, values: readYaml(`helm/charts/${service}/values.yaml`) },
  ];
  for (const environment of environments) {
    const file = `helm/environments/${environment}/${service}.yaml`;
    values.push({ source: file, values: object(readYaml(file)[service]) });
  }
  return {
    shape: await configShape(service),
    schema: {
      env: Object.keys(object(object(properties.env).properties)),
      secretEnv: (object(object(properties.secretEnv).propertyNames).anyOf as unknown[]).flatMap((p) =>
        names(object(p).enum),
      ),
      ports: [...names(object(port.env).enum), ...names(object(port.addressEnv).enum)],
    },
    values: values.map(({ source, values: v }) => ({
      source,
      env: object(v.env),
      secretEnv: Object.keys(object(v.secretEnv)),
      ports: Array.isArray(v.ports) ? v.ports.map(object) : [],
    })),
  };
}

const charts = Object.fromEntries(await Promise.all(services.map(async (s) => [s, await chart(s)] as const)));

describe.each(services)('helm/charts/%s against its config shape', (service) => {
  const { shape, schema, values } = charts[service]!;
  const variables = Object.keys(shape);
  const secretOnly = schema.secretEnv.filter((name) => !schema.env.includes(name));

  it('sets every variable of the shape: in env, in secretEnv or by a port', () => {
    const settable = new Set([...schema.env, ...schema.secretEnv, ...schema.ports]);
    expect(variables.filter((name) => !settable.has(name))).toEqual([]);
  });

  it("describes as env exactly the shape's variables that are neither secrets only nor set by a port", () => {
    expect(sorted(schema.env.filter((name) => !readByOthers(name)))).toEqual(
      sorted(variables.filter((name) => !secretOnly.includes(name) && !schema.ports.includes(name))),
    );
  });

  it('knows no secretEnv or port variable the shape does not read', () => {
    expect([...schema.secretEnv, ...schema.ports].filter((name) => !(name in shape))).toEqual([]);
  });

  it('sets in values.yaml and the environment files only variables the shape reads', () => {
    const unknown = values.flatMap(({ source, env, secretEnv, ports }) =>
      [
        ...Object.keys(env),
        ...secretEnv,
        ...ports.flatMap((p) => [p.env, p.addressEnv]).filter((v) => typeof v === 'string'),
      ]
        .filter((name) => !(name in shape) && !readByOthers(name))
        .map((name) => `${source}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('gives every variable a value its validator accepts, in values.yaml and in each environment file', () => {
    const refused = values.flatMap(({ source, env, ports }) => {
      const set: [string, string | undefined][] = [
        ...Object.entries(env).map(([name, value]) => [name, rendered(value)] as [string, string | undefined]),
        ...ports.flatMap((p): [string, string][] => [
          ...(typeof p.env === 'string' ? [[p.env, String(p.port)] as [string, string]] : []),
          ...(typeof p.addressEnv === 'string'
            ? [[p.addressEnv, `0.0.0.0:${String(p.port)}`] as [string, string]]
            : []),
        ]),
      ];
      return set.flatMap(([name, value]) => {
        const variable = shape[name];
        if (!variable || value === undefined) return [];
        const result = variable.safeParse(value);
        return result.success
          ? []
          : [`${source}: ${name}=${JSON.stringify(value)}: ${result.error?.issues[0]?.message}`];
      });
    });
    expect(refused).toEqual([]);
  });

  it.each(environments)('sets in %s every variable the shape requires (no default)', (environment) => {
    const [defaults, ...files] = values;
    const file = files.find((f) => f.source.includes(`/${environment}/`))!;
    const env = { ...defaults!.env, ...file.env };
    const set = new Set([
      ...Object.keys(env).filter((name) => rendered(env[name]) !== undefined),
      ...defaults!.secretEnv,
      ...file.secretEnv,
      ...[...defaults!.ports, ...file.ports].flatMap((p) => [p.env, p.addressEnv]).filter((v) => typeof v === 'string'),
    ]);
    const required = variables.filter((name) => !shape[name]!.safeParse(undefined).success);
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((name) => !set.has(name))).toEqual([]);
  });
});
