// The specs of one service (issue 33, decision 0056), for `pnpm test:service <service>`
// (deploy/local/test-service.sh): its own unit and integration specs, those of the workspace packages
// no other service runs with, and the e2e suites test/e2e/services.yaml says exercise it.
//
//   node deploy/local/service-tests.mjs <service>   prints them as jest path patterns, one a line
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';
import { packagesOnlyFor, SERVICES } from '../release/service-code.mjs';

const SUITE = '.e2e.spec.ts';

/** test/e2e/services.yaml: suite name (its file without .e2e.spec.ts) → the services it exercises. */
export function exercisedServices(root) {
  return YAML.parse(readFileSync(join(root, 'test/e2e/services.yaml'), 'utf8'));
}

/** The e2e suites on disk, by name. */
export function e2eSuites(root) {
  return readdirSync(join(root, 'test/e2e'))
    .filter((file) => file.endsWith(SUITE))
    .map((file) => file.slice(0, -SUITE.length))
    .sort();
}

/** The folders whose specs are the service's, and the names of the e2e suites that exercise it. */
export function serviceTests(root, service) {
  if (!SERVICES.includes(service)) throw new Error(`no service named '${service}' (${SERVICES.join(', ')})`);
  const e2e = Object.entries(exercisedServices(root))
    .filter(([, services]) => services.includes(service))
    .map(([suite]) => suite)
    .sort();
  return { folders: [`services/${service}`, ...packagesOnlyFor(root, service)], e2e };
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
    for (const pattern of jestPatterns(serviceTests(root, process.argv[2] ?? ''))) console.log(pattern);
  } catch (error) {
    console.error(`service-tests: ${error.message}`);
    process.exit(2);
  }
}
