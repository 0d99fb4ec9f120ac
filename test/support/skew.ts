import { execFileSync } from 'node:child_process';
import { readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { createTestCertificates, REPO_ROOT, type TestCertificates } from '@corridor/testing';
import type { Browser } from 'puppeteer-core';
import { launchChromium } from './dashboard-visitor.js';
import { describeMoneyJourney, journeyOptions } from './money-journey.js';
import { Platform, type PlatformService } from './platform.js';

/**
 * Issue 33's version-skew matrix (decision 0052): each of five services at its previous release
 * with everything else (the gateway too) at this tree, and the reverse. The releases come from
 * deploy/release/previous.sh, their builds from deploy/release/build-previous.sh.
 */

/** The services the matrix pairs; the gateway goes with "the rest". */
export const SKEW_SERVICES = ['identity', 'customer-kyb', 'payments', 'notification', 'dashboard'] as const;
export type SkewService = (typeof SKEW_SERVICES)[number];

/** Which side the paired service is on: its previous release (the rest at HEAD) or HEAD (the rest at theirs). */
export type SkewSide = 'previous' | 'head';

const EVERY_PROCESS: readonly PlatformService[] = ['gateway', ...SKEW_SERVICES];

/** A service's previous release: previous.sh's commit and tag ("merge-base" when no release is behind HEAD). */
export interface Release {
  commit: string;
  tag: string;
}

const releases = new Map<PlatformService, Release>();

/** The previous release of a service (previous.sh, asked once per service). */
export function previousRelease(service: PlatformService): Release {
  let release = releases.get(service);
  if (!release) {
    const answer = execFileSync('bash', [join(REPO_ROOT, 'deploy/release/previous.sh'), service], { encoding: 'utf8' });
    const [commit = '', tag = ''] = answer.trim().split(' ');
    release = { commit, tag };
    releases.set(service, release);
  }
  return release;
}

/** "release/payments/0.1.0 (c5926b7)", or "the merge base with main (c5926b7)". */
export function releaseName(service: PlatformService): string {
  const { commit, tag } = previousRelease(service);
  return `${tag === 'merge-base' ? 'the merge base with main' : tag} (${commit.slice(0, 7)})`;
}

/**
 * The folder of the service's previous release, built (build-previous.sh: at once when built
 * before; deploy/local/skew.sh builds them before jest starts, so a cold build is not in a test's time).
 */
export function previousRoot(service: PlatformService): string {
  return execFileSync('bash', [join(REPO_ROOT, 'deploy/release/build-previous.sh'), service], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

/** Where every process runs from in a pair. */
export type Layout = Record<PlatformService, string>;

/** The roots of a pair: the service on its side, every other process (the gateway too) on the other. */
export function layoutOf(service: SkewService, side: SkewSide): Layout {
  const old = side === 'previous';
  return Object.fromEntries(
    EVERY_PROCESS.map((each) => [each, (each === service) === old ? previousRoot(each) : REPO_ROOT]),
  ) as Layout;
}

/** The pair's name, which every test of it carries, so a failure names it. */
export function pairName(service: SkewService, side: SkewSide): string {
  if (side === 'previous') return `${service} at ${releaseName(service)}, the rest at HEAD`;
  const byRelease = new Map<string, string[]>();
  for (const other of EVERY_PROCESS.filter((each) => each !== service)) {
    const { commit, tag } = previousRelease(other);
    const at = `${tag === 'merge-base' ? 'the merge base with main' : tag.split('/').at(-1)} (${commit.slice(0, 7)})`;
    byRelease.set(at, [...(byRelease.get(at) ?? []), other]);
  }
  const rest = [...byRelease].map(([at, services]) => `${services.join(', ')} at ${at}`).join('; ');
  return `${service} at HEAD, the rest at their previous release (${rest})`;
}

/**
 * The matrix's services on one side that this run asks for: CORRIDOR_SKEW is `all` (the default),
 * or services (both sides) and pairs (`payments@previous`, `payments@head`), space- or comma-separated.
 */
export function selectedServices(side: SkewSide): SkewService[] {
  const asked = (process.env.CORRIDOR_SKEW ?? 'all').split(/[\s,]+/).filter(Boolean);
  if (asked.includes('all')) return [...SKEW_SERVICES];
  const known = SKEW_SERVICES.flatMap((service) => [service, `${service}@previous`, `${service}@head`]);
  const unknown = asked.filter((word) => !known.includes(word));
  if (unknown.length > 0)
    throw new Error(`CORRIDOR_SKEW: no pair named ${unknown.join(', ')} (known: all, ${known.join(', ')})`);
  return SKEW_SERVICES.filter((service) => asked.includes(service) || asked.includes(`${service}@${side}`));
}

/** Moves every process whose root differs from the layout's (Platform.moveService), one at a time. */
export async function arrange(platform: Platform, layout: Layout): Promise<void> {
  for (const service of EVERY_PROCESS) {
    const root = layout[service];
    if (realpathSync(platform.rootOf(service)) !== realpathSync(root)) await platform.moveService(service, root);
  }
}

/**
 * Where each running process works, read from the kernel (/proc/<pid>/cwd), as the folder of the
 * root it runs from: the proof that a previous release's build, not this tree's, answers.
 */
export function runningRoots(platform: Platform): Record<PlatformService, string> {
  return Object.fromEntries(
    EVERY_PROCESS.map((service) => {
      const pid = platform.processOf(service)?.child.pid;
      if (pid === undefined) throw new Error(`${service} is not running`);
      return [service, readlinkSync(`/proc/${pid}/cwd`)];
    }),
  ) as Record<PlatformService, string>;
}

/** The folder each process of a layout works in (its root's services/<service>, symlinks resolved). */
export function expectedFolders(layout: Layout): Record<PlatformService, string> {
  return Object.fromEntries(
    EVERY_PROCESS.map((service) => [service, realpathSync(join(layout[service], 'services', service))]),
  ) as Record<PlatformService, string>;
}

/**
 * One side of the matrix: one platform, started in its first pair's layout; then, pair after pair,
 * the paired service moved to the other side (and the one before moved back), its processes' roots
 * proven, and the money journey run.
 */
export function describeSkew(side: SkewSide): void {
  const services = selectedServices(side);
  const [first] = services;
  if (!first) throw new Error(`CORRIDOR_SKEW=${process.env.CORRIDOR_SKEW} names no pair with a service at ${side}`);
  const title =
    side === 'previous'
      ? 'version skew: one service at its previous release, the rest at HEAD'
      : 'version skew: one service at HEAD, the rest at their previous release';
  describe(title, () => {
    let certificates: TestCertificates;
    let platform: Platform;
    let browser: Browser;

    beforeAll(async () => {
      certificates = await createTestCertificates();
      platform = new Platform({ ...journeyOptions(certificates), roots: layoutOf(first, side) });
      [browser] = await Promise.all([launchChromium(), platform.start()]);
    });
    afterAll(async () => {
      await browser?.close();
      await platform?.stop();
    });

    for (const service of services) {
      describe(pairName(service, side), () => {
        const layout = layoutOf(service, side);
        beforeAll(() => arrange(platform, layout));

        it('runs each process from the build of its side (the folder the kernel says it works in)', () => {
          expect(runningRoots(platform)).toEqual(expectedFolders(layout));
        });
        describeMoneyJourney(() => ({ platform, browser, certificates, screenshots: `skew/${service}-at-${side}` }));
      });
    }
  });
}
