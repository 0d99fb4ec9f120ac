// What a service's release is made of (issue 33, decision 0054): the service's folder and the
// workspace packages it runs with, as its image is built (deploy/image/Dockerfile:
// `pnpm deploy --prod --filter @corridor/<service>`). A plain .mjs: deploy/helm/check.sh runs it
// before anything is built, and deploy/local/test-service.sh reads the same graph.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SERVICES = ['identity', 'customer-kyb', 'payments', 'notification', 'dashboard', 'gateway'];

/** package.json of each workspace folder (services/*, packages/*) under root, by folder. */
function manifests(root) {
  const found = new Map();
  for (const kind of ['services', 'packages']) {
    for (const entry of readdirSync(join(root, kind), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const folder = `${kind}/${entry.name}`;
      try {
        found.set(folder, JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')));
      } catch {
        // a folder without a package.json (a leftover dist/) is no workspace package
      }
    }
  }
  return found;
}

/**
 * The folders of the workspace packages a service runs with: its `dependencies` on workspace
 * packages, and theirs, transitively, sorted. Dev dependencies (@corridor/testing) never reach its
 * image. A package added or dropped shows in the service's own package.json, so the work tree's
 * graph is the one to read.
 */
export function runtimePackages(root, service) {
  const all = manifests(root);
  const folderOf = new Map([...all].map(([folder, manifest]) => [manifest.name, folder]));
  const seen = new Set();
  const visit = (folder) => {
    for (const name of Object.keys(all.get(folder)?.dependencies ?? {})) {
      const dependency = folderOf.get(name);
      if (dependency && !seen.has(dependency)) {
        seen.add(dependency);
        visit(dependency);
      }
    }
  };
  visit(`services/${service}`);
  return [...seen].sort();
}

/** The packages among a service's runtime packages that no other service runs with. */
export function packagesOnlyFor(root, service) {
  const others = new Set(SERVICES.filter((s) => s !== service).flatMap((s) => runtimePackages(root, s)));
  return runtimePackages(root, service).filter((folder) => !others.has(folder));
}
