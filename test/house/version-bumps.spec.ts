import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * deploy/helm/version-bumps.mjs (decision 0054) on a scratch git repository: a service `payments`
 * running with a workspace package `money`, developed with `fixtures` (a dev dependency), its chart,
 * CHANGELOG and release tag, with this repository's .dockerignore and deploy/release/previous.sh.
 * Each case commits one change after the tag and reads the verdict.
 */
const root = join(import.meta.dirname, '..', '..');

interface VersionBumps {
  checkService(root: string, service: string): { ok: boolean; line: string };
}
// A plain .mjs with no types of its own (deploy/helm/check.sh runs it before anything is built).
const bumps = (await import(pathToFileURL(join(root, 'deploy/helm/version-bumps.mjs')).href)) as VersionBumps;

const chart = (version: string, appVersion: string) =>
  `apiVersion: v2\nname: payments\ntype: application\nversion: ${version}\nappVersion: '${appVersion}'\n`;
const changelog = (...versions: string[]) =>
  `# Changelog\n\n## [Unreleased]\n\n${versions.map((v) => `## [${v}] - 2026-11-29\n\nWhat it does.\n`).join('\n')}`;
const lockfile = (moneyDependency: string) =>
  `lockfileVersion: '9.0'\nimporters:\n  packages/money:\n    dependencies:\n      decimal.js:\n        specifier: ^10.0.0\n        version: ${moneyDependency}\n`;

let repo: string;
// previous.sh orders tags by their commit's date, to the second: each commit gets a second of its own.
let clock = 0;
const git = (...args: string[]) =>
  execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'spec',
      GIT_AUTHOR_EMAIL: 'spec@corridor.invalid',
      GIT_COMMITTER_NAME: 'spec',
      GIT_COMMITTER_EMAIL: 'spec@corridor.invalid',
      GIT_COMMITTER_DATE: `${1_790_000_000 + clock} +0000`,
    },
  });
const write = (path: string, content: string) => {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
};
const commit = (message: string) => {
  clock += 1;
  git('add', '-A');
  git('commit', '-q', '-m', message);
};
const verdict = () => bumps.checkService(repo, 'payments');

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'version-bumps-'));
  git('init', '-q', '-b', 'main');
  cpSync(join(root, '.dockerignore'), join(repo, '.dockerignore'));
  cpSync(join(root, 'deploy/release/previous.sh'), join(repo, 'deploy/release/previous.sh'));
  write(
    'services/payments/package.json',
    JSON.stringify({
      name: '@corridor/payments',
      dependencies: { '@corridor/money': 'workspace:*' },
      devDependencies: { '@corridor/fixtures': 'workspace:*' },
    }),
  );
  write('services/payments/src/main.ts', 'export const main = 1;\n');
  write('services/payments/src/main.spec.ts', 'it("runs", () => undefined);\n');
  write('services/payments/CHANGELOG.md', changelog('0.1.0'));
  write('services/payments/README.md', '# payments\n');
  write('packages/money/package.json', JSON.stringify({ name: '@corridor/money' }));
  write('packages/money/src/money.ts', 'export const cents = 100;\n');
  write('packages/fixtures/package.json', JSON.stringify({ name: '@corridor/fixtures' }));
  write('packages/fixtures/src/fixtures.ts', 'export const fixture = 1;\n');
  write('proto/corridor/payments/v1/payments.proto', 'syntax = "proto3";\n');
  write('proto/buf.yaml', 'version: v2\n');
  write('pnpm-lock.yaml', lockfile('10.4.3'));
  write('helm/charts/payments/Chart.yaml', chart('0.2.0', '0.1.0'));
  commit('payments 0.1.0');
  git('tag', 'release/payments/0.1.0');
  git('checkout', '-q', '-b', 'work');
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('a service unchanged since its release, or changed only where its image does not look', () => {
  it('passes with nothing changed', () => {
    write('README.md', 'the repository changed, not payments\n');
    commit('elsewhere');
    expect(verdict()).toEqual({
      ok: true,
      line: expect.stringMatching(/^payments 0\.1\.0: neither code nor chart changed since release\/payments\/0\.1\.0/),
    });
  });

  it.each([
    ['a spec', 'services/payments/src/main.spec.ts'],
    ['its README', 'services/payments/README.md'],
    ['its CHANGELOG', 'services/payments/CHANGELOG.md'],
    ['a dev dependency', 'packages/fixtures/src/fixtures.ts'],
    ['proto tooling (buf.yaml)', 'proto/buf.yaml'],
  ])('passes when only %s changed', (_what, path) => {
    write(path, 'changed\n');
    commit(`change ${path}`);
    expect(verdict().ok).toBe(true);
  });
});

describe('a service whose code changed', () => {
  it.each([
    ['its source', 'services/payments/src/main.ts'],
    ['its package.json', 'services/payments/package.json'],
    ['a package it runs with', 'packages/money/src/money.ts'],
    ['a contract', 'proto/corridor/payments/v1/payments.proto'],
  ])('fails when %s changed, naming the service, the range, the file and what to bump', (_what, path) => {
    write(
      path,
      path.endsWith('.json') ? JSON.stringify({ name: '@corridor/payments', dependencies: {} }) : 'changed\n',
    );
    commit(`change ${path}`);
    const { ok, line } = verdict();
    expect(ok).toBe(false);
    expect(line).toMatch(
      /^payments: code changed \(.*\) in release\/payments\/0\.1\.0 \([0-9a-f]{7}\)\.\.the work tree/,
    );
    expect(line).toContain(path);
    expect(line).toContain('helm/charts/payments/Chart.yaml version above 0.2.0 (it is 0.2.0)');
    expect(line).toContain('helm/charts/payments/Chart.yaml appVersion above 0.1.0 (it is 0.1.0)');
    expect(line).toContain('services/payments/CHANGELOG.md');
  });

  it('fails when the lockfile resolves another version of a dependency of a package it runs with', () => {
    write('pnpm-lock.yaml', lockfile('10.6.0'));
    commit('decimal.js 10.6.0');
    expect(verdict()).toEqual({
      ok: false,
      line: expect.stringContaining("pnpm-lock.yaml (packages/money's dependencies)"),
    });
  });

  it('counts an uncommitted new file', () => {
    write('services/payments/src/new-capability.ts', 'export const added = true;\n');
    expect(verdict()).toEqual({ ok: false, line: expect.stringContaining('services/payments/src/new-capability.ts') });
  });

  it('passes once the chart version, appVersion and CHANGELOG name the new version', () => {
    write('services/payments/src/main.ts', 'export const main = 2;\n');
    write('helm/charts/payments/Chart.yaml', chart('0.3.0', '0.2.0'));
    write('services/payments/CHANGELOG.md', changelog('0.2.0', '0.1.0'));
    commit('payments 0.2.0');
    expect(verdict()).toEqual({ ok: true, line: expect.stringContaining('chart 0.2.0 → 0.3.0') });
  });

  it('fails with the chart version bumped alone: the appVersion and the CHANGELOG too', () => {
    write('services/payments/src/main.ts', 'export const main = 2;\n');
    write('helm/charts/payments/Chart.yaml', chart('0.3.0', '0.1.0'));
    commit('chart only');
    const { ok, line } = verdict();
    expect(ok).toBe(false);
    expect(line).not.toContain('Chart.yaml version above');
    expect(line).toContain('appVersion above 0.1.0 (it is 0.1.0)');
  });

  it('fails when the CHANGELOG does not name the new version', () => {
    write('services/payments/src/main.ts', 'export const main = 2;\n');
    write('helm/charts/payments/Chart.yaml', chart('0.3.0', '0.2.0'));
    commit('no changelog');
    expect(verdict()).toEqual({
      ok: false,
      line: expect.stringContaining('a "## [0.2.0] - <date>" section in services/payments/CHANGELOG.md'),
    });
  });

  it('needs only a new chart version when the chart alone changed', () => {
    write('helm/charts/payments/templates/deployment.yaml', '{{ include "lib.deployment" . }}\n');
    commit('chart template');
    expect(verdict()).toEqual({
      ok: false,
      line: expect.stringMatching(
        /^payments: chart changed \(helm\/charts\/payments\/templates\/deployment\.yaml\).*needs: helm\/charts\/payments\/Chart\.yaml version above 0\.2\.0 \(it is 0\.2\.0\)$/,
      ),
    });
    write('helm/charts/payments/Chart.yaml', chart('0.2.1', '0.1.0'));
    commit('chart 0.2.1');
    expect(verdict().ok).toBe(true);
  });

  it('compares versions as numbers, not text (0.10.0 > 0.9.0), and refuses a lower one', () => {
    write('helm/charts/payments/Chart.yaml', chart('0.9.0', '0.9.0'));
    write('services/payments/CHANGELOG.md', changelog('0.9.0', '0.1.0'));
    commit('payments 0.9.0');
    git('tag', 'release/payments/0.9.0');
    write('services/payments/src/main.ts', 'export const main = 10;\n');
    write('helm/charts/payments/Chart.yaml', chart('0.10.0', '0.10.0'));
    write('services/payments/CHANGELOG.md', changelog('0.10.0', '0.9.0', '0.1.0'));
    commit('payments 0.10.0');
    expect(verdict()).toEqual({ ok: true, line: expect.stringContaining('since release/payments/0.9.0') });
    write('helm/charts/payments/Chart.yaml', chart('0.8.0', '0.10.0'));
    expect(verdict()).toEqual({ ok: false, line: expect.stringContaining('version above 0.9.0 (it is 0.8.0)') });
  });
});
