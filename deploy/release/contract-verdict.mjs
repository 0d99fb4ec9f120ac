// The contract gates' verdict (deploy/release/contract-gates.sh): prints every break buf and oasdiff
// found against the previous release, each accepted one with its reason from
// docs/api/accepted-breaking-changes.yaml (format at its top), and fails on any other.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';

const { values: args } = parseArgs({
  options: {
    against: { type: 'string' },
    commit: { type: 'string' },
    proto: { type: 'string' },
    openapi: { type: 'string' },
    accepted: { type: 'string' },
  },
});
const root = join(import.meta.dirname, '..', '..');
const say = (line) => console.log(`[contracts] ${line}`);

/** @typedef {{ gate: 'proto' | 'openapi', rule: string, where: string, message: string }} Finding */

/** buf's JSON lines: {path, start_line, type, message}. */
const protoFindings = readFileSync(args.proto, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))
  .map((f) => ({ gate: 'proto', rule: f.type, where: f.path, line: f.start_line, message: f.message }));

/** oasdiff's `breaking --format json`: [{id, text, level, operation, path}]; level 3 is ERR, 2 WARN. */
const openapiFindings = JSON.parse(readFileSync(args.openapi, 'utf8') || '[]').map((f) => ({
  gate: 'openapi',
  rule: f.id,
  where: `${f.operation} ${f.path}`,
  message: f.text.replaceAll('`', "'"),
}));

const KEYS = ['against', 'gate', 'rule', 'where', 'message', 'reason'];
const document = parse(readFileSync(args.accepted, 'utf8')) ?? {};
const entries = document.accepted ?? [];
const problems = entries.flatMap((entry, index) => {
  const name = `entry ${index + 1}`;
  const unknown = Object.keys(entry).filter((key) => !KEYS.includes(key));
  const missing = KEYS.filter((key) => key !== 'message' && !(typeof entry[key] === 'string' && entry[key].trim()));
  return [
    ...unknown.map((key) => `${name}: unknown key '${key}'`),
    ...missing.map((key) => `${name}: '${key}' is required (a non-empty string)`),
    ...(['proto', 'openapi'].includes(entry.gate) ? [] : [`${name}: gate is proto or openapi, not '${entry.gate}'`]),
  ];
});
if (problems.length > 0) {
  for (const problem of problems) say(`${args.accepted}: ${problem}`);
  process.exit(1);
}

// An acceptance holds against the release it names (one commit may carry several services' tags).
// previous.sh names the releases on a commit from the tags and releases.txt alike, so a clone made
// without tags (CI's) accepts the same breaks.
const releasesOnCommit = execFileSync('bash', [join(root, 'deploy/release/previous.sh'), 'at', args.commit], {
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);
const current = entries.filter((entry) => releasesOnCommit.includes(entry.against));
const acceptance = (finding) =>
  current.find(
    (entry) =>
      entry.gate === finding.gate &&
      entry.rule === finding.rule &&
      entry.where === finding.where &&
      (entry.message === undefined || finding.message.includes(entry.message)),
  );

const findings = [...protoFindings, ...openapiFindings];
let refused = 0;
for (const finding of findings) {
  const at = finding.line ? `${finding.where}:${finding.line}` : finding.where;
  const accepted = acceptance(finding);
  const line = `${finding.gate} ${at} [${finding.rule}] ${finding.message}`;
  if (accepted) {
    say(`accepted: ${line} (reason: ${accepted.reason.trim()})`);
  } else {
    refused += 1;
    say(`BREAKING: ${line}`);
  }
}
const counts = `${protoFindings.length} in proto/, ${openapiFindings.length} in the public OpenAPI document`;
if (refused > 0) {
  say(
    `FAILED: ${refused} breaking change(s) against ${args.against} (${counts}): keep the contract, or accept each with its reason in docs/api/accepted-breaking-changes.yaml`,
  );
  process.exit(1);
}
say(`no unaccepted breaking change against ${args.against} (${counts})`);
