import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  createTestCertificates,
  eventually,
  freePort,
  testKafka,
  uniqueSuffix,
  WebhookReceiver,
  type TestCertificates,
} from '@corridor/testing';
import { Platform } from '../support/platform.js';
import { expectedSignature, receiverEnv } from '../support/receiving-business.js';

/**
 * Issue 31 part 5: README.md is a test. Every ```sh block runs, in order, in one bash session
 * (`set -Eeuo pipefail`, so variables carry from block to block) against a platform started for it,
 * seeded by the same `corridor admin sandbox seed` as `npm start`, with the webhook URLs pointed at
 * a local HTTPS receiver. A block the README does not mean to run carries
 * `<!-- readme-test: skip (why) -->` on the line before it; nothing is skipped silently. Every curl
 * answering other than 2xx fails its block, unless its command says `# expect: <status>[|<status>…]`.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const README = join(ROOT, 'README.md');
const SKIP = /^<!-- readme-test: skip \((.+)\) -->$/;
const EXPECT = /#\s*expect:\s*([0-9x|]+)/;
/** Long enough for the whole README on a loaded machine; a hung command fails rather than blocks jest. */
const RUN_TIMEOUT_MS = 150_000;
/** Where the run's output is kept, to read what each block printed. */
const OUTPUT = join(ROOT, '.local', 'test-output', 'readme');

interface Block {
  /** 1-based, in README order (skipped ones counted). */
  number: number;
  heading: string;
  /** README line of the block's first command line. */
  firstLine: number;
  lines: string[];
  skip: string | undefined;
}

/** Every ```sh block of the README, with the heading it sits under and its skip marker's reason. */
export function readmeBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let heading = '(top)';
  let fence: { language: string; start: number } | undefined;
  let body: string[] = [];
  lines.forEach((line, index) => {
    if (fence) {
      if (line.trim() === '```') {
        if (fence.language === 'sh') {
          const before = lines.slice(0, fence.start).findLast((candidate) => candidate.trim() !== '') ?? '';
          if (/^<!--.*readme-test/.test(before) && !SKIP.test(before)) {
            throw new Error(
              `README.md:${fence.start + 1}: the marker before this block must read <!-- readme-test: skip (why) -->`,
            );
          }
          blocks.push({
            number: blocks.length + 1,
            heading,
            firstLine: fence.start + 2,
            lines: body,
            skip: SKIP.exec(before)?.[1],
          });
        }
        fence = undefined;
      } else body.push(line);
      return;
    }
    const opening = /^```(\S*)/.exec(line);
    if (opening) {
      const language = opening[1] ?? '';
      // A shell block under another name would escape the test.
      if (['bash', 'shell', 'console', 'zsh'].includes(language)) {
        throw new Error(`README.md:${index + 1}: shell blocks are \`\`\`sh, so that this spec runs them`);
      }
      fence = { language, start: index };
      body = [];
    } else if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
  });
  if (fence) throw new Error(`README.md:${fence.start + 1}: a code block is never closed`);
  return blocks;
}

/** A command as bash reads it: lines joined by a trailing `\`, `|`, `&&` or `||`. */
interface Command {
  /** Indexes into the block's lines. */
  from: number;
  to: number;
  text: string;
}

function commandsOf(block: Block): Command[] {
  const commands: Command[] = [];
  let from = 0;
  block.lines.forEach((line, index) => {
    const code = line.replace(/\s+#.*$/, '');
    if (/(\\|\||&&)\s*$/.test(code)) return;
    commands.push({ from, to: index, text: block.lines.slice(from, index + 1).join('\n') });
    from = index + 1;
  });
  return commands;
}

/** The statuses a command may answer with: its `# expect:`, else any 2xx. */
const expectationOf = (command: Command) => EXPECT.exec(command.text)?.[1];

/** Text outside `${NAME:-default}` and comments: what runs whatever the environment says. */
const unconditional = (text: string) =>
  text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .map((line) => line.replace(/\s#\s.*$/, '').replace(/\$\{\w+:-[^}]*\}/g, ''))
    .join('\n');

/** Problems of the running blocks that need no platform to see. */
function staticProblems(blocks: Block[]): string[] {
  const problems: string[] = [];
  for (const block of blocks.filter((candidate) => candidate.skip === undefined)) {
    for (const command of commandsOf(block)) {
      const where = `README.md:${block.firstLine + command.from} (block ${block.number}, "${block.heading}")`;
      const code = unconditional(command.text);
      // The spec's platform is not npm start's: an address or .local/ file read unconditionally
      // would call (or read the secrets of) the developer's own stack.
      if (/127\.0\.0\.1:80\d\d|localhost:80\d\d/.test(code))
        problems.push(`${where}: use $BASE or $ADMIN, not an address`);
      if (/\.local\//.test(code)) problems.push(`${where}: read .local/ only in a \${VAR:-…} default`);
      // A newcomer's shell must stop on an error too, not only this spec's.
      if (expectationOf(command) === undefined) {
        for (const match of code.matchAll(/\bcurl\b((?:\s+-[^\s|;)]*|\s+[^-\s|;)][^\s|;)]*)*)/g)) {
          const options = (match[1] ?? '').split(/\s+/).filter((word) => word.startsWith('-'));
          const fails = options.some((option) => /^--fail(-with-body)?$/.test(option) || /^-[a-zA-Z]*f/.test(option));
          if (!fails) problems.push(`${where}: curl without --fail-with-body (or -f) and no "# expect:"`);
        }
      }
    }
  }
  return problems;
}

/**
 * bash helpers before the first block: a curl that records each answer's status and refuses one the
 * README does not expect, and the ERR report naming the README line. Written with `@{` for bash's
 * `${` (a template literal would read it as its own).
 */
const PRELUDE = String.raw`set -Eeuo pipefail
source "$README_TEST_DIR/maps.sh"
__matches() {
  local code; local -a codes; IFS='|' read -ra codes <<<"$2"
  for code in "@{codes[@]}"; do
    [[ $code == 2xx && $1 == 2?? ]] && return 0; [[ $1 == "$code" ]] && return 0
  done
  return 1
}
curl() {
  local line=@{BASH_LINENO[0]} headers status rc=0 allowed
  headers=$(mktemp)
  command curl -D "$headers" "$@" || rc=$?
  status=$(sed -n 's/^HTTP\/[0-9.]* \([0-9][0-9][0-9]\).*/\1/p' "$headers" | tail -n 1); rm -f "$headers"
  status=@{status:-000}; allowed=@{__expect[$line]:-2xx}
  printf '\n::curl README.md:%s %s\n' "@{__readme[$line]:-?}" "$status" >&2
  if ! __matches "$status" "$allowed"; then
    printf '\n::failed README.md:%s curl answered HTTP %s; the README expects %s\n' "@{__readme[$line]:-?}" "$status" "$allowed" >&2
    return 22
  fi
  return $rc
}
trap 'printf "\n::failed README.md:%s exit status %s\n" "@{__readme[$LINENO]:-?}" "$?" >&2' ERR
__block() { printf '\n::block %s\n' "$1" >&2; }
`.replaceAll('@{', '${');

interface Script {
  text: string;
  maps: string;
}

/** The running blocks as one script, and the maps from its lines to README lines and expectations. */
function scriptOf(blocks: Block[]): Script {
  const out = PRELUDE.split('\n');
  const readmeLine = new Map<number, number>();
  const expected = new Map<number, string>();
  for (const block of blocks.filter((candidate) => candidate.skip === undefined)) {
    out.push(`__block ${block.number}`);
    const start = out.length + 1; // the script line of the block's first line
    block.lines.forEach((line, index) => {
      out.push(line);
      readmeLine.set(start + index, block.firstLine + index);
    });
    for (const command of commandsOf(block)) {
      const expectation = expectationOf(command);
      for (let index = command.from; index <= command.to; index++) {
        if (expectation) expected.set(start + index, expectation);
      }
    }
  }
  out.push('__block done', 'printf "%s" "${SIGNING_SECRET:-}" >"$README_TEST_DIR/signing-secret"');
  const assoc = (name: string, map: Map<number, number | string>) =>
    `declare -A ${name}=(${[...map].map(([key, value]) => `[${key}]='${value}'`).join(' ')})`;
  return { text: out.join('\n') + '\n', maps: `${assoc('__readme', readmeLine)}\n${assoc('__expect', expected)}\n` };
}

interface Run {
  code: number | null;
  output: string;
  timedOut: boolean;
}

function runBash(file: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [file], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, RUN_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, timedOut });
    });
  });
}

/** The failure as a reader wants it: the block, the README line, and the output before it. */
function describeFailure(run: Run, blocks: Block[]): string {
  const blockNumber = Number([...run.output.matchAll(/^::block (\d+)$/gm)].at(-1)?.[1]);
  const block = blocks.find((candidate) => candidate.number === blockNumber);
  const failed = /^::failed (.*)$/m.exec(run.output)?.[1];
  const tail = run.output.split('\n').slice(-40).join('\n');
  return [
    `README.md block ${blockNumber} ("${block?.heading ?? '?'}", from line ${block?.firstLine ?? '?'}) failed` +
      (run.timedOut ? ` (killed after ${RUN_TIMEOUT_MS / 1000} s)` : ''),
    failed ? `at ${failed}` : `bash exited ${run.code}`,
    '--- the last output ---',
    tail,
  ].join('\n');
}

describe('README.md, every sh block in order against a platform of its own (issue 31 part 5)', () => {
  let blocks: Block[];
  let certificates: TestCertificates;
  let receiver: WebhookReceiver;
  let platform: Platform;
  let folder: string;
  let signingSecret: string | undefined;

  beforeAll(async () => {
    blocks = readmeBlocks(await readFile(README, 'utf8'));
    folder = await mkdtemp(join(tmpdir(), 'readme-test-'));
    certificates = await createTestCertificates();
    receiver = await WebhookReceiver.start({ certificates });
    // Its own platform: the README sets exchange rates and fees platform-wide, as the back office does.
    platform = new Platform({ notificationEnv: receiverEnv(certificates, [0, 1_000, 2_000, 4_000, 8_000]) });
    await platform.start();
    await seedSandbox();
    await deadLetter();
  });
  afterAll(async () => {
    await receiver?.stop();
    await platform?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** What npm start does after the services: `corridor admin sandbox seed`, into this suite's sandbox.json. */
  async function seedSandbox(): Promise<void> {
    const run = await new Promise<Run>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [join(ROOT, 'packages/admin-cli/dist/main.js'), 'admin', 'sandbox', 'seed'],
        {
          env: { ...cliEnv(), PATH: process.env.PATH ?? '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output, timedOut: false }));
    });
    if (run.code !== 0) throw new Error(`corridor admin sandbox seed exited ${run.code}: ${run.output}`);
  }

  /** The admin CLI's connection to this platform: never npm start's .local/. */
  const cliEnv = () => ({
    CORRIDOR_LOCAL: folder,
    CORRIDOR_ADMIN_URL: platform.adminUrl,
    CORRIDOR_BASE_URL: platform.publicUrl,
    ADMIN_TOKEN: platform.adminToken,
  });

  /** A message notification cannot decode, so that "Dead letters" has one to read and retry. */
  async function deadLetter(): Promise<void> {
    const producer = testKafka().producer();
    await producer.connect();
    try {
      await producer.send({
        topic: platform.customerTopic,
        messages: [{ key: `readme-${uniqueSuffix()}`, value: Buffer.from([0x0f, 0xff, 0x00, 0x42]) }],
      });
    } finally {
      await producer.disconnect();
    }
    await eventually(
      async () => {
        const response = await platform.admin('/admin/dead-letters/notification?status=unresolved');
        const body = (await response.json()) as { data?: unknown[] };
        if (!body.data?.length) throw new Error('notification has kept no dead letter yet');
      },
      30_000,
      250,
    );
  }

  it('marks each block it does not run with a reason; running blocks stop on an unexpected status', () => {
    expect(blocks.length).toBeGreaterThan(5);
    for (const block of blocks.filter((candidate) => candidate.skip !== undefined)) {
      expect(block.skip?.trim()).not.toBe('');
    }
    expect(staticProblems(blocks)).toEqual([]);
  });

  it('runs every other sh block in order, each curl answering 2xx or what its line expects', async () => {
    const sandbox = JSON.parse(await readFile(join(folder, 'sandbox.json'), 'utf8')) as Record<string, string>;
    const script = scriptOf(blocks);
    const file = join(folder, 'readme.sh');
    await writeFile(file, script.text);
    await writeFile(join(folder, 'maps.sh'), script.maps);
    const run = await runBash(file, {
      // The Node that runs jest (24) first, as `. deploy/local/toolchain.sh` would put it.
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: process.env.HOME ?? folder,
      LANG: 'C.UTF-8',
      README_TEST_DIR: folder,
      ...cliEnv(),
      BASE: platform.publicUrl,
      ADMIN: platform.adminUrl,
      CLIENT_ID: sandbox.client_id ?? '',
      CLIENT_SECRET: sandbox.client_secret ?? '',
      BUSINESS: sandbox.business_id ?? '',
      RECEIVER_URL: `https://127.0.0.1:${receiver.port}/hooks`,
      // "Receive webhooks locally": its handler's port, free on this machine (a reader's default is 3000).
      LOCAL_PORT: String(await freePort()),
    });
    await mkdir(OUTPUT, { recursive: true });
    await writeFile(join(OUTPUT, 'run.log'), run.output);
    if (run.code !== 0 || run.timedOut || !/^::block done$/m.test(run.output)) {
      throw new Error(describeFailure(run, blocks));
    }

    // "Receive webhooks locally": corridor listen forwarded the block's collection.successful to the
    // handler on 127.0.0.1, which answered 200, and its answer is a listen attempt of that delivery.
    // (--until-event ends it at the first one: a late one of the crypto block, 20 blocks after its
    // deposit, would do as well, as it would for a reader.)
    const collectionLine = /^→ collection\.successful 200 \d+ms \[([0-9a-f-]{36})\]$/m.exec(run.output);
    expect(collectionLine?.[0]).toEqual(expect.any(String));
    const webhookReader = await platform.accessToken(
      { client_id: sandbox.client_id ?? '', client_secret: sandbox.client_secret ?? '' },
      'webhook:read',
    );
    const delivery = await platform.webhooks.delivery(webhookReader, collectionLine?.[1] ?? '');
    expect(delivery.attempts).toContainEqual(
      expect.objectContaining({ trigger: 'listen', outcome: 'succeeded', status_code: 200 }),
    );

    // The webhooks the README's calls made reached the receiver, signed with the secret it printed.
    signingSecret = (await readFile(join(folder, 'signing-secret'), 'utf8')) || undefined;
    expect(signingSecret).toEqual(expect.any(String));
    const collections = await receiver.waitFor(
      (request) => (request.json as { event?: string } | undefined)?.event === 'collection.successful',
    );
    // The receiver did not know the secret while they arrived: each is checked now that it is known.
    for (const hook of collections) {
      expect(hook.headers['x-corridor-signature']).toBe(expectedSignature(signingSecret ?? '', hook));
    }
  });
});
