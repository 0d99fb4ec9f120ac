// A service whose code changed since its previous release carries a new version (issue 33, decision
// 0054): its chart's `version` and `appVersion` above the release's, and its CHANGELOG naming the new
// appVersion. deploy/helm/check.sh runs it; a failure names the service, the commit range, what
// changed and what to bump.
//
//   node deploy/helm/version-bumps.mjs [service...]   (default: every service)
//
// The previous release is deploy/release/previous.sh's. A service's code is what its image is built
// from (deploy/release/service-code.mjs): its folder and the workspace packages it runs with, less
// what .dockerignore keeps out of every image (specs, fakes, fixtures, Markdown), plus the .proto
// files the generated contracts come from, plus the versions pnpm-lock.yaml resolves for those
// folders' runtime dependencies. Compared with the work tree, so an uncommitted change counts too.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';
import { changedCode, changedFiles, fileAt, SERVICES } from '../release/service-code.mjs';

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

/** a > b for MAJOR.MINOR.PATCH versions (releases carry no pre-release part). */
function greater(a, b) {
  const [x, y] = [SEMVER.exec(a), SEMVER.exec(b)];
  if (!x || !y) return false;
  for (let i = 1; i <= 3; i++) if (Number(x[i]) !== Number(y[i])) return Number(x[i]) > Number(y[i]);
  return false;
}

/** previous.sh's answer for the service: the commit and the tag (or "merge-base"). */
export function previousRelease(root, service) {
  const [commit, tag] = execFileSync('bash', [join(root, 'deploy/release/previous.sh'), service], {
    cwd: root,
    encoding: 'utf8',
  })
    .trim()
    .split(' ');
  return { commit, tag };
}

/** The files of the service's chart that differ: its folder, the library chart, its values schema's parts. */
export function changedChart(root, service, commit) {
  const parts = [
    `helm/charts/${service}`,
    'helm/charts/lib',
    'helm/values-schema/base.json',
    `helm/values-schema/${service}.json`,
  ];
  return [...changedFiles(root, commit, parts)].sort();
}

const listed = (files) => `${files.slice(0, 5).join(', ')}${files.length > 5 ? ` and ${files.length - 5} more` : ''}`;

/**
 * One service against its previous release: `{ ok, line }`, line saying either what holds or what
 * to bump. Changed code needs a new chart version and appVersion, and a CHANGELOG section for the
 * new appVersion; a changed chart alone needs a new chart version (Helm's rule for any chart).
 */
export function checkService(root, service) {
  const { commit, tag } = previousRelease(root, service);
  const short = commit.slice(0, 7);
  const since = tag === 'merge-base' ? `the merge base with main (${short})` : `${tag} (${short})`;
  const code = changedCode(root, service, commit);
  const chartFiles = changedChart(root, service, commit);
  const chartPath = `helm/charts/${service}/Chart.yaml`;
  const chart = YAML.parse(readFileSync(join(root, chartPath), 'utf8'));
  const version = String(chart.version);
  const appVersion = String(chart.appVersion);
  if (code.length === 0 && chartFiles.length === 0) {
    return { ok: true, line: `${service} ${appVersion}: neither code nor chart changed since ${since}` };
  }

  const released = YAML.parse(fileAt(root, commit, chartPath) ?? '{}') ?? {};
  const bumps = [['version', version, released.version]];
  if (code.length > 0) bumps.push(['appVersion', appVersion, released.appVersion]);
  const missing = [];
  for (const [key, now, then] of bumps) {
    if (!SEMVER.test(now)) missing.push(`${chartPath} ${key} as MAJOR.MINOR.PATCH (it is '${now}')`);
    else if (then !== undefined && !greater(now, String(then)))
      missing.push(`${chartPath} ${key} above ${then} (it is ${now})`);
  }
  if (code.length > 0) {
    const changelogPath = `services/${service}/CHANGELOG.md`;
    const changelog = existsSync(join(root, changelogPath)) ? readFileSync(join(root, changelogPath), 'utf8') : '';
    const named = new RegExp(`^## \\[${appVersion.replace(/\./g, '\\.')}\\]`, 'm');
    if (missing.length > 0) missing.push(`a "## [<new appVersion>] - <date>" section in ${changelogPath}`);
    else if (!named.test(changelog)) missing.push(`a "## [${appVersion}] - <date>" section in ${changelogPath}`);
  }
  const what = code.length > 0 ? `code changed (${listed(code)})` : `chart changed (${listed(chartFiles)})`;
  if (missing.length > 0) {
    return { ok: false, line: `${service}: ${what} in ${since}..the work tree, and needs: ${missing.join('; ')}` };
  }
  return {
    ok: true,
    line: `${service} ${appVersion}: ${what} since ${since}, chart ${released.version ?? 'new'} → ${version}`,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(import.meta.dirname, '..', '..');
  const services = process.argv.length > 2 ? process.argv.slice(2) : SERVICES;
  let failed = false;
  for (const service of services) {
    const { ok, line } = checkService(root, service);
    (ok ? console.log : console.error)(`${ok ? '' : 'FAILED: '}${line}`);
    failed ||= !ok;
  }
  process.exit(failed ? 1 : 0);
}
