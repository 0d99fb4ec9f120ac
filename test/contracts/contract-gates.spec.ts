import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * The breaks issue 33 names fail the contract gates, naming what broke (decisions 0048 and 0050):
 * each spec makes one on a scratch copy of this tree's contract (proto/, the public OpenAPI
 * document) and runs the gate script npm test runs (deploy/release/contract-gates.sh) against the
 * previous release.
 */

const root = join(import.meta.dirname, '..', '..');
const script = join(root, 'deploy/release/contract-gates.sh');
let scratch: string;
/** This tree's public OpenAPI document, as the gates print it: made once, copied into each scratch. */
let document: string;

/** The gates on the scratch copy: exit code and everything they printed. */
function runGates(options: { accepted?: string } = {}): { code: number | null; output: string } {
  const args = [script, '--proto', join(scratch, 'proto'), '--openapi', join(scratch, 'openapi.json')];
  if (options.accepted) args.push('--accepted', options.accepted);
  const run = spawnSync('bash', args, { cwd: root, encoding: 'utf8' });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Replaces one exact piece of a scratch file; throws when the piece is not there (the spec went stale). */
function edit(file: string, from: string, to: string): void {
  const path = join(scratch, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} has no ${JSON.stringify(from)}`);
  writeFileSync(path, text.replace(from, to));
}

beforeAll(() => {
  // The document is over a mebibyte, spawnSync's default buffer: a larger one, and a failure that says why.
  const printed = spawnSync('node', [join(root, 'deploy/release/openapi-document.mjs')], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (printed.status !== 0) {
    throw new Error(`the OpenAPI document: ${printed.error?.message ?? ''} ${printed.stderr}`);
  }
  document = printed.stdout;
});
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'contract-gates-'));
  cpSync(join(root, 'proto'), join(scratch, 'proto'), { recursive: true });
  writeFileSync(join(scratch, 'openapi.json'), document);
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe('the contract gates against the previous release (deploy/release/contract-gates.sh)', () => {
  it('pass this tree as it is', () => {
    const { code, output } = runGates();
    expect(output).toMatch(/no unaccepted breaking change against release\//);
    expect(code).toBe(0);
  });

  it('fail a renumbered field, naming it', () => {
    edit('proto/corridor/payments/v1/transaction.proto', '  string currency = 5;', '  string currency = 19;');
    const { code, output } = runGates();
    expect(output).toMatch(
      /BREAKING: proto proto\/corridor\/payments\/v1\/transaction\.proto:\d+ \[FIELD_NO_DELETE\] .*field "5" with name "currency" on message "Transaction"/,
    );
    expect(code).toBe(1);
  });

  it('fail a dropped enum value, naming it', () => {
    edit('proto/corridor/payments/v1/transaction.proto', '  TRANSACTION_STATUS_REVERSED = 6;\n', '');
    const { code, output } = runGates();
    expect(output).toMatch(
      /BREAKING: proto proto\/corridor\/payments\/v1\/transaction\.proto:\d+ \[ENUM_VALUE_NO_DELETE\] .*enum value "6" on enum "TransactionStatus"/,
    );
    expect(code).toBe(1);
  });

  it('fail a removed RPC, naming it', () => {
    edit(
      'proto/corridor/payments/v1/wallets_service.proto',
      '  rpc CreateSwap(CreateSwapRequest) returns (CreateSwapResponse);\n',
      '',
    );
    const { code, output } = runGates();
    expect(output).toMatch(
      /BREAKING: proto proto\/corridor\/payments\/v1\/wallets_service\.proto:\d+ \[RPC_NO_DELETE\] .*RPC "CreateSwap" on service "WalletsService"/,
    );
    expect(code).toBe(1);
  });

  it('fail a removed documented response field, naming the operation and the field', () => {
    const path = join(scratch, 'openapi.json');
    const changed = JSON.parse(readFileSync(path, 'utf8'));
    const whoami = changed.paths['/api/external/whoami'].get.responses['200'].content['application/json'].schema;
    const data = whoami.properties.data;
    delete data.properties.client_id;
    data.required = data.required.filter((name: string) => name !== 'client_id');
    writeFileSync(path, JSON.stringify(changed));
    const { code, output } = runGates();
    expect(output).toMatch(
      /BREAKING: openapi GET \/api\/external\/whoami \[response-required-property-removed\] removed the required property 'data\/client_id' from the response with the '200' status/,
    );
    expect(code).toBe(1);
  });

  describe('with the accepted list', () => {
    const against = () => {
      const previous = spawnSync('bash', [join(root, 'deploy/release/previous.sh'), 'contract'], { encoding: 'utf8' });
      return previous.stdout.trim().split(' ')[1];
    };
    /** The reviewed list's entries: this tree's own accepted breaks stay accepted beside the spec's. */
    const reviewed = () =>
      (parse(readFileSync(join(root, 'docs/api/accepted-breaking-changes.yaml'), 'utf8')) as { accepted: unknown[] })
        .accepted;
    const acceptRenumbering = (reason: string) => {
      const file = join(scratch, 'accepted.yaml');
      writeFileSync(
        file,
        JSON.stringify({
          accepted: [
            ...reviewed(),
            {
              against: against(),
              gate: 'proto',
              rule: 'FIELD_NO_DELETE',
              where: 'proto/corridor/payments/v1/transaction.proto',
              message: '"currency"',
              reason,
            },
          ],
        }),
      );
      return file;
    };

    it('pass a break listed with its reason, and print the reason', () => {
      edit('proto/corridor/payments/v1/transaction.proto', '  string currency = 5;', '  string currency = 19;');
      const { code, output } = runGates({ accepted: acceptRenumbering('no consumer reads currency') });
      expect(output).toMatch(
        /accepted: proto .* \[FIELD_NO_DELETE\] .*"currency".* \(reason: no consumer reads currency\)/,
      );
      expect(code).toBe(0);
    });

    it('refuse an entry without a reason', () => {
      const { code, output } = runGates({ accepted: acceptRenumbering(' ') });
      expect(output).toContain(`entry ${reviewed().length + 1}: 'reason' is required`);
      expect(code).toBe(1);
    });
  });
});
