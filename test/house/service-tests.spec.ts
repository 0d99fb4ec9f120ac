import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `pnpm test:service <service>` (decision 0055): test/e2e/services.yaml maps every e2e suite to the
 * services it exercises, and deploy/local/service-tests.mjs turns it into jest path patterns. Every
 * suite is mapped, every mapped name is a suite, every service has suites, and each service's
 * patterns select exactly its suites and its own folders.
 */
const root = join(import.meta.dirname, '..', '..');
const SERVICES = ['identity', 'customer-kyb', 'payments', 'notification', 'dashboard', 'gateway'];

interface ServiceTests {
  exercisedServices(root: string): { exercises: Record<string, unknown>; npmTestOnly: Record<string, unknown> };
  e2eSuites(root: string): string[];
  serviceTests(root: string, service: string): { folders: string[]; e2e: string[]; left: string[] };
  jestPatterns(tests: { folders: string[]; e2e: string[] }): string[];
}
// A plain .mjs with no types of its own (deploy/local/test-service.sh runs it).
const tests = (await import(pathToFileURL(join(root, 'deploy/local/service-tests.mjs')).href)) as ServiceTests;
const { exercises, npmTestOnly } = tests.exercisedServices(root);
const suites = tests.e2eSuites(root);
const servicesOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);

describe('test/e2e/services.yaml', () => {
  it('maps every e2e suite on disk, and names no suite that is not', () => {
    expect(suites.length).toBeGreaterThan(40);
    expect(Object.keys(exercises).sort()).toEqual(suites);
  });

  it.each(suites)('%s exercises at least one service, each named once', (suite) => {
    const services = servicesOf(exercises[suite]);
    expect(services.length).toBeGreaterThan(0);
    expect(services.filter((name) => !SERVICES.includes(name))).toEqual([]);
    expect(new Set(services).size).toBe(services.length);
  });

  it('leaves a suite to npm test only for services it exercises', () => {
    for (const [suite, services] of Object.entries(npmTestOnly)) {
      expect({
        suite,
        services: servicesOf(services).filter((s) => !servicesOf(exercises[suite]).includes(s)),
      }).toEqual({
        suite,
        services: [],
      });
    }
  });
});

describe('deploy/local/service-tests.mjs', () => {
  const e2eFiles = suites.map((suite) => join(root, 'test/e2e', `${suite}.e2e.spec.ts`));
  const specFiles = ['services', 'packages'].flatMap((kind) =>
    readdirSync(join(root, kind), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.spec.ts') && !path.includes('node_modules'))
      .map((path) => join(root, kind, path)),
  );

  it.each(SERVICES)("%s: its patterns select its mapped suites and its folders' specs, nothing else", (service) => {
    const selected = tests.serviceTests(root, service);
    expect(selected.e2e.length).toBeGreaterThan(0);
    expect(selected.e2e.filter((suite) => selected.left.includes(suite))).toEqual([]);
    expect([...selected.e2e, ...selected.left].sort()).toEqual(
      suites.filter((suite) => servicesOf(exercises[suite]).includes(service)),
    );
    expect(selected.folders[0]).toBe(`services/${service}`);
    const patterns = tests.jestPatterns(selected).map((pattern) => new RegExp(pattern));
    const chosen = (file: string) => patterns.some((pattern) => pattern.test(file));
    expect(e2eFiles.filter(chosen).sort()).toEqual(
      selected.e2e.map((suite) => join(root, 'test/e2e', `${suite}.e2e.spec.ts`)).sort(),
    );
    const ownSpecs = specFiles.filter((file) =>
      selected.folders.some((folder) => file.startsWith(join(root, folder) + '/')),
    );
    expect(ownSpecs.length).toBeGreaterThan(0);
    expect(specFiles.filter(chosen).sort()).toEqual(ownSpecs.sort());
  });

  it('refuses a name that is no service', () => {
    expect(() => tests.serviceTests(root, 'ledger')).toThrow("no service named 'ledger'");
  });
});
