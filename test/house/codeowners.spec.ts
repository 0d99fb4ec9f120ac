import { existsSync, globSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * .github/CODEOWNERS (issue 33, decision 0056): a team per service, and every services/* and
 * packages/* folder named on a line of its own, so a new package cannot slip in owned by the
 * catch-all; every line names a path that exists, so a rename cannot leave a rule matching nothing.
 */
const root = join(import.meta.dirname, '..', '..');
const SERVICES = ['identity', 'customer-kyb', 'payments', 'notification', 'dashboard', 'gateway'];

const rules = readFileSync(join(root, '.github/CODEOWNERS'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const [pattern = '', ...owners] = line.split(/\s+/);
    return { pattern, owners };
  });
const ownersOf = (pattern: string) => rules.find((rule) => rule.pattern === pattern)?.owners;
const folders = (kind: string) =>
  readdirSync(join(root, kind), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, kind, entry.name, 'package.json')))
    .map((entry) => `/${kind}/${entry.name}/`);

describe('.github/CODEOWNERS', () => {
  it.each([...folders('services'), ...folders('packages')])('%s has an owner line of its own', (folder) => {
    expect(ownersOf(folder)).toEqual(expect.arrayContaining([expect.stringMatching(/^@corridor\/[a-z-]+$/)]));
  });

  it.each(SERVICES)("services/%s, its chart and its protos' domain are its own team's", (service) => {
    expect(ownersOf(`/services/${service}/`)).toEqual([`@corridor/${service}`]);
    expect(ownersOf(`/helm/charts/${service}/`)).toEqual([`@corridor/${service}`]);
  });

  it('names teams of the corridor organization alone, each path once, and every path exists', () => {
    expect(rules.length).toBeGreaterThan(SERVICES.length);
    for (const { pattern, owners } of rules) {
      expect(owners.length).toBeGreaterThan(0);
      for (const owner of owners) expect(owner).toMatch(/^@corridor\/[a-z-]+$/);
      if (pattern === '*') continue;
      expect(pattern).toMatch(/^\//);
      expect({ pattern, matches: globSync(pattern.slice(1).replace(/\/$/, ''), { cwd: root }).length > 0 }).toEqual({
        pattern,
        matches: true,
      });
    }
    expect(new Set(rules.map((rule) => rule.pattern)).size).toBe(rules.length);
  });
});
