// The specs of one service (issue 33, decision 0055), for `pnpm test:service <service>`
// (deploy/local/test-service.sh): its own unit and integration specs, those of the workspace packages
// no other service runs with, and the e2e suites test/e2e/services.yaml says exercise it.
//
//   node deploy/local/service-tests.mjs <service>   prints them as jest path patterns, one a line,
//                                                   and on stderr the suites it leaves to npm test
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';
import { packagesOnlyFor, SERVICES } from '../release/service-code.mjs';

const SUITE = '.e2e.spec.ts';

/**
 * test/e2e/services.yaml: `exercises`, suite name (its file without .e2e.spec.ts) → the services it
 * exercises; `npmTestOnly`, suite name → the services whose command leaves it to npm test.
 */
export function exercisedServices(root) {
  const { exercises = {}, npmTestOnly = {} } = YAML.parse(readFileSync(join(root, 'test/e2e/services.yaml'), 'utf8'));
  return { exercises, npmTestOnly };
}

/** The e2e suites on disk, by name. */
export function e2eSuites(root) {
  return readdirSync(join(root, 'test/e2e'))
    .filter((file) => file.endsWith(SUITE))
    .map((file) => file.slice(0, -SUITE.length))
    .sort();
}

/**
 * The folders whose specs are the service's, the names of the e2e suites that exercise it and the
 * command runs (`e2e`), and those it leaves to npm test (`left`).
 */
export function serviceTests(root, service) {
  if (!SERVICES.includes(service)) throw new Error(`no service named '${service}' (${SERVICES.join(', ')})`);
  const { exercises, npmTestOnly } = exercisedServices(root);
  const named = (map) =>
    Object.entries(map)
      .filter(([, services]) => services.includes(service))
      .map(([suite]) => suite)
      .sort();
  const left = named(npmTestOnly);
  const e2e = named(exercises).filter((suite) => !left.includes(suite));
  return { folders: [`services/${service}`, ...packagesOnlyFor(root, service)], e2e, left };
}

/** jest path patterns (regular expressions on absolute paths) for serviceTests. */
export function jestPatterns({ folders, e2e }) {
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    ...folders.map((folder) => `/${escape(folder)}/`),
    ...e2e.map((suite) => `/test/e2e/${escape(suite + SUITE)}$`),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(import.meta.dirname, '..', '..');
  try {
    const tests = serviceTests(root, process.argv[2] ?? '');
    for (const pattern of jestPatterns(tests)) console.log(pattern);
    if (tests.left.length > 0)
      console.error(`[test:service] left to npm test: ${tests.left.join(', ')} (test/e2e/services.yaml)`);
  } catch (error) {
    console.error(`service-tests: ${error.message}`);
    process.exit(2);
  }
}
