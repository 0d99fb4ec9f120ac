import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * deploy/release/previous.sh on a scratch git repository: the previous release is the newest
 * release behind HEAD, known from its tag or from deploy/release/releases.txt alone (a clone made
 * without tags), and a tag and a line that disagree stop it.
 */
const root = join(import.meta.dirname, '..', '..');

let repo: string;
let clock = 0;
const env = () => ({
  ...process.env,
  GIT_AUTHOR_NAME: 'spec',
  GIT_AUTHOR_EMAIL: 'spec@corridor.invalid',
  GIT_COMMITTER_NAME: 'spec',
  GIT_COMMITTER_EMAIL: 'spec@corridor.invalid',
  GIT_COMMITTER_DATE: `${1_790_000_000 + clock} +0000`,
});
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: env() }).trim();
const commit = (message: string) => {
  clock += 1;
  git('commit', '-q', '--allow-empty', '-m', message);
  return git('rev-parse', 'HEAD');
};
const record = (...lines: string[]) =>
  writeFileSync(join(repo, 'deploy/release/releases.txt'), `# releases\n${lines.join('\n')}\n`);
const previous = (...args: string[]) => {
  const run = spawnSync('bash', ['deploy/release/previous.sh', ...args], { cwd: repo, encoding: 'utf8' });
  return { code: run.status, out: run.stdout.trim(), err: run.stderr.trim() };
};

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'previous-release-'));
  git('init', '-q', '-b', 'main');
  mkdirSync(join(repo, 'deploy/release'), { recursive: true });
  cpSync(join(root, 'deploy/release/previous.sh'), join(repo, 'deploy/release/previous.sh'));
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('previous.sh', () => {
  it('with no release, names the merge base with main', () => {
    const head = commit('first');
    expect(previous('payments').out).toBe(`${head} merge-base`);
  });

  it('names the newest tagged release behind HEAD, never HEAD itself', () => {
    const first = commit('0.1.0');
    git('tag', '-a', 'release/payments/0.1.0', '-m', 'payments 0.1.0');
    const second = commit('0.2.0');
    git('tag', '-a', 'release/payments/0.2.0', '-m', 'payments 0.2.0');
    expect(previous('payments').out).toBe(`${first} release/payments/0.1.0`);
    commit('after 0.2.0');
    expect(previous('payments').out).toBe(`${second} release/payments/0.2.0`);
    expect(previous('identity').out).toMatch(/ merge-base$/);
  });

  it('knows a release from releases.txt alone, as a clone without tags does', () => {
    const released = commit('0.1.0');
    commit('after');
    record(`release/payments/0.1.0 ${released}`, `release/gateway/0.1.0 ${released}`);
    expect(previous('payments').out).toBe(`${released} release/payments/0.1.0`);
    expect(previous('contract').out).toMatch(new RegExp(`^${released} release/(payments|gateway)/0\\.1\\.0$`));
    expect(previous('at', released).out.split('\n')).toEqual(['release/gateway/0.1.0', 'release/payments/0.1.0']);
  });

  it('stops when a tag and releases.txt name different commits for one release', () => {
    const tagged = commit('0.1.0');
    git('tag', '-a', 'release/payments/0.1.0', '-m', 'payments 0.1.0');
    const other = commit('other');
    commit('after');
    record(`release/payments/0.1.0 ${other}`);
    expect(previous('payments')).toMatchObject({ code: 1, err: expect.stringContaining('release/payments/0.1.0') });
    record(`release/payments/0.1.0 ${tagged}`);
    expect(previous('payments').out).toBe(`${tagged} release/payments/0.1.0`);
  });
});
