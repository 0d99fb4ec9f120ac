import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The README says what is here (issue 10 point 7): every service and package in its layout, and
 * every port a service listens on by default in its ports table. A new service, package or port
 * fails this until the README names it.
 */
const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = (title: string) => {
  const start = readme.indexOf(`## ${title}\n`);
  if (start < 0) throw new Error(`README.md has no "## ${title}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
};
const directories = (folder: string) =>
  readdirSync(join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

describe('the README is true', () => {
  const layout = section('Layout');
  const ports = section('Ports');

  it.each([
    ...directories('services').map((name) => `services/${name}`),
    ...directories('packages').map((name) => `packages/${name}`),
  ])('the layout names %s', (path) => {
    expect(layout).toMatch(new RegExp(`^${path}\\s`, 'm'));
  });

  it.each(directories('services'))('the ports table names every default port of %s', (service) => {
    const config = readFileSync(join(root, 'services', service, 'src', 'config.ts'), 'utf8');
    // Its own listening settings: <SERVICE>_GRPC_ADDRESS, <SERVICE>_…_PORT, METRICS_PORT (the other
    // addresses in its config are those of the services it calls).
    const prefix = (service.split('-')[0] ?? service).toUpperCase();
    const own = [...config.matchAll(/^ {2}(\w+): [^\n]*(?<!\d)(\d{2,5})['")]/gm)]
      .filter(
        ([, name = '']) =>
          name === 'METRICS_PORT' || (name.startsWith(`${prefix}_`) && /(_GRPC_ADDRESS|_PORT)$/.test(name)),
      )
      .map(([, , port]) => port);
    expect(own.length).toBeGreaterThan(0);
    for (const port of own) expect(ports).toMatch(new RegExp(`\\b${port}\\b`));
  });
});
