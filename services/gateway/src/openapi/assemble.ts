import type {
  ComponentsObject,
  OpenAPIObject,
  OperationObject,
  PathItemObject,
  PathsObject,
  TagObject,
} from 'openapi3-ts/oas31';
import type { DocumentedRoute } from '../http/route-table.js';
import { refusingControlCharacters, schemasNamedBy } from '../floor/text-boundary.js';

/**
 * One way to build an OpenAPI document, for the public API and the admin API alike: a route table's
 * operations beside the paths written by hand, the shared components, and only the components the
 * document refers to (Redocly's no-unused-components).
 */

export interface DocumentParts<Route extends DocumentedRoute> {
  title: string;
  description: string;
  /** Who serves the document: its server is relative, the listener serving it. */
  server: string;
  tags: TagObject[];
  /** The paths outside the table (token endpoint, probes, the document itself). */
  paths: PathsObject;
  routes: readonly Route[];
  operationOf(route: Route): OperationObject;
  /** Every component the document may refer to; those it does not are left out. */
  components: ComponentsObject;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const operationsOf = (paths: PathsObject): OperationObject[] =>
  Object.values(paths).flatMap((item: PathItemObject) =>
    METHODS.flatMap((method) => (item[method] ? [item[method]] : [])),
  );

const REFERENCE = /"#\/components\/([A-Za-z]+)\/([^"]+)"/g;

/** The components reachable from the paths, by $ref (transitively) and by security requirement. */
function referencedComponents(paths: PathsObject, components: ComponentsObject): ComponentsObject {
  const sections = components as Record<string, Record<string, unknown> | undefined>;
  const used = new Set<string>();
  const pending = [JSON.stringify(paths)];
  for (let text = pending.pop(); text !== undefined; text = pending.pop()) {
    for (const [, section = '', name = ''] of text.matchAll(REFERENCE)) {
      const key = `${section}/${name}`;
      const target = sections[section]?.[name];
      if (used.has(key) || target === undefined) continue;
      used.add(key);
      pending.push(JSON.stringify(target));
    }
  }
  for (const operation of operationsOf(paths)) {
    for (const requirement of operation.security ?? []) {
      for (const scheme of Object.keys(requirement)) used.add(`securitySchemes/${scheme}`);
    }
  }
  const kept = Object.entries(sections).flatMap(([section, entries = {}]) => {
    const names = Object.entries(entries).filter(([name]) => used.has(`${section}/${name}`));
    return names.length > 0 ? [[section, Object.fromEntries(names)]] : [];
  });
  return Object.fromEntries(kept) as ComponentsObject;
}

export function assembleDocument<Route extends DocumentedRoute>(parts: DocumentParts<Route>): OpenAPIObject {
  const paths: PathsObject = { ...parts.paths };
  for (const route of parts.routes) {
    paths[route.path] = { ...paths[route.path], [route.method]: parts.operationOf(route) };
  }
  // The shared schemas a request body names (a customer's owners) are request text too.
  const schemas = { ...parts.components.schemas };
  for (const name of schemasNamedBy(parts.routes.map((route) => route.requestBody))) {
    const schema = schemas[name];
    if (schema && !('$ref' in schema)) schemas[name] = refusingControlCharacters(schema);
  }
  return {
    openapi: '3.1.1',
    // Relative: the document is served by the listener it describes, sandbox or production alike.
    servers: [{ url: '/', description: parts.server }],
    info: {
      title: parts.title,
      // seed part 9: the API description carries version 1.0.0.
      version: '1.0.0',
      // An SPDX LicenseRef: no public licence applies (OpenAPI 3.1 license.identifier).
      license: { name: 'Proprietary: for platforms with a Corridor agreement', identifier: 'LicenseRef-Corridor' },
      description: parts.description.trim(),
    },
    tags: parts.tags,
    paths,
    components: referencedComponents(paths, { ...parts.components, schemas }),
  };
}

/** Every documented path and method: the listener answers any other method on these paths 405. */
export const documentedOperations = ({ paths = {} }: OpenAPIObject): { method: string; path: string }[] =>
  Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => ({ method, path })),
  );
