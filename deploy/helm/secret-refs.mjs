// Reads rendered manifests (many YAML documents) on stdin and prints every Secret they read a key
// of, one line per Secret: `<name> <key>,<key>…`. deploy/helm/cluster-check.sh makes those Secrets
// with made-up values, as an operator would make the real ones (the charts never make a Secret).
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

const secrets = new Map();
function visit(node) {
  if (Array.isArray(node)) return node.forEach(visit);
  if (node === null || typeof node !== 'object') return;
  const ref = node.secretKeyRef;
  if (ref && typeof ref.name === 'string' && typeof ref.key === 'string' && ref.optional !== true) {
    if (!secrets.has(ref.name)) secrets.set(ref.name, new Set());
    secrets.get(ref.name).add(ref.key);
  }
  Object.values(node).forEach(visit);
}
for (const document of parseAllDocuments(readFileSync(0, 'utf8'))) {
  if (document.errors.length > 0) throw new Error(`rendered manifest: ${document.errors[0].message}`);
  visit(document.toJS());
}
for (const [name, keys] of [...secrets].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`${name} ${[...keys].sort().join(',')}`);
}
