// What a service's release is made of (issue 33, decision 0054): the service's folder and the
// workspace packages it runs with, as its image is built (deploy/image/Dockerfile:
// `pnpm deploy --prod --filter @corridor/<service>`). A plain .mjs: deploy/helm/check.sh runs it
// before anything is built, and deploy/local/test-service.sh reads the same graph.
//
//   node deploy/release/service-code.mjs changed <service> <commit>
//
// prints the files of the service's code that differ from the commit's, one a line (nothing: the
// same program); deploy/local/skew.sh asks it which services to pair with their previous release.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';

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

const git = (root, ...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });

/** The file at a commit, or undefined when it did not exist there. */
export function fileAt(root, commit, path) {
  try {
    return execFileSync('git', ['show', `${commit}:${path}`], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
}

/** .dockerignore's patterns as git pathspecs that exclude them (a pattern names a file or a folder). */
function imageExclusions(root) {
  return readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .flatMap((pattern) => {
      // A re-inclusion would need .dockerignore's own matcher; none is used, and none goes unread.
      if (pattern.startsWith('!'))
        throw new Error(`.dockerignore: '${pattern}' (a re-inclusion) is not understood here`);
      return [`:(exclude,glob)${pattern}`, `:(exclude,glob)${pattern}/**`];
    });
}

/** The files under pathspecs that differ between the commit and the work tree, untracked ones included. */
export function changedFiles(root, commit, pathspecs) {
  const changed = new Set([
    ...git(root, 'diff', '--name-only', '--no-renames', commit, '--', ...pathspecs).split('\n'),
    ...git(root, 'ls-files', '--others', '--exclude-standard', '--', ...pathspecs).split('\n'),
  ]);
  changed.delete('');
  return changed;
}

/** The files of the service's code that differ between the commit and the work tree. */
export function changedCode(root, service, commit) {
  const folders = [`services/${service}`, ...runtimePackages(root, service)];
  const changed = changedFiles(root, commit, [...folders, ':(glob)proto/**/*.proto', ...imageExclusions(root)]);
  const dependencies = (lockfile) => {
    const importers = lockfile ? (YAML.parse(lockfile).importers ?? {}) : {};
    return folders.map((folder) => JSON.stringify(importers[folder]?.dependencies ?? {}));
  };
  const before = dependencies(fileAt(root, commit, 'pnpm-lock.yaml'));
  const now = dependencies(
    existsSync(join(root, 'pnpm-lock.yaml')) ? readFileSync(join(root, 'pnpm-lock.yaml'), 'utf8') : undefined,
  );
  folders.forEach((folder, i) => {
    if (before[i] !== now[i]) changed.add(`pnpm-lock.yaml (${folder}'s dependencies)`);
  });
  return [...changed].sort();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [verb, service, commit] = process.argv.slice(2);
  if (verb !== 'changed' || !SERVICES.includes(service) || !commit) {
    console.error(`usage: service-code.mjs changed <${SERVICES.join('|')}> <commit>`);
    process.exit(2);
  }
  for (const file of changedCode(join(import.meta.dirname, '../..'), service, commit)) console.log(file);
}
