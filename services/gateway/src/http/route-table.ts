import { recordHttpRoute } from '@corridor/telemetry/route';
import type { RequestHandler } from 'express';
import type { HeadersObject } from 'openapi3-ts/oas31';
import type { JsonSchema } from './json-schema.js';
import { HttpError } from './errors.js';

/**
 * What every route table of the gateway holds, public and admin alike: one entry per operation, from
 * which its listener's router and its OpenAPI document are both made.
 */

/** One documented response; without a schema an error status answers the shared Error body, a 2xx none. */
export interface RouteResponse {
  description: string;
  schema?: JsonSchema;
  /** Headers of this route's own, beyond x-request-id (and the rate-limit ones of the public API). */
  headers?: HeadersObject;
  /** A success's media type when it is not JSON (a stream: `text/event-stream`); schema then describes its text. */
  mediaType?: string;
  /** The documented answer, when one built from the schema would say nothing (a stream's text). */
  example?: unknown;
}

export interface DocumentedRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path under the server root, e.g. /api/external/customer/{id}. */
  path: string;
  operationId: string;
  summary: string;
  /**
   * The route's own responses by status: its success and any error particular to it (e.g. 409).
   * The errors every route of its listener can answer (authentication, 5xx; 404 when the path names
   * a resource) are added by the document.
   */
  responses: Readonly<Record<number, RouteResponse>>;
  /** The JSON body the route reads, if any (the document then adds 400, 413, 415 and 422). */
  requestBody?: JsonSchema;
  /** false: the body may be left out (read as {}); the document says it is optional. */
  requestBodyRequired?: false;
  /** The query parameters the route reads, as one closed object schema: each property is a parameter. */
  query?: JsonSchema;
}

/** /api/external/customer/{id} → /api/external/customer/:id */
export const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/** First handler of a documented route: its trace span and metrics are named by the path as documented. */
export const tracedAs =
  (path: string): RequestHandler =>
  (_req, _res, next) => {
    recordHttpRoute(path);
    next();
  };

/** A documented operation: what methodNotAllowed needs of a route. */
export interface DocumentedMethod {
  method: string;
  path: string;
}

/** {id} is one path segment, as express reads :id. */
const pathPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}/?$`);

const templates = (path: string) => (path.match(/\{/g) ?? []).length;

/** /a/b and /a/b/ both have 2. */
const segments = (path: string) => {
  let count = 0;
  for (let i = 0; i < path.length - 1; i++) if (path.charCodeAt(i) === 47) count++;
  return count;
};

/**
 * A known path asked with a method it does not have (RFC 9110 15.5.6): 405 with `Allow` naming the
 * methods it has, and OPTIONS answered 204 with the same `Allow`. Unknown paths fall through to 404.
 * Mounted before the routes: a path that is also a value of a sibling template (…/document/presigned-url
 * beside …/document/{document}) has only its own methods, as OpenAPI matches concrete paths first.
 */
export function methodNotAllowed(routes: readonly DocumentedMethod[]): RequestHandler {
  // Every request passes here, /healthz included: only the paths with as many segments as the
  // request's are tried (a template's {id} is one segment), in one pass (issue 14).
  const bySegments = new Map<number, { path: string; pattern: RegExp; templates: number; methods: string[] }[]>();
  for (const path of new Set(routes.map((route) => route.path))) {
    const documented = {
      path,
      pattern: pathPattern(path),
      templates: templates(path),
      methods: routes.filter((route) => route.path === path).map((route) => route.method.toUpperCase()),
    };
    const count = segments(path);
    bySegments.set(count, [...(bySegments.get(count) ?? []), documented]);
  }
  // A path with no template that is asked as written (whoami, /oauth/token) is the most concrete match
  // there can be: its methods are found by name, with no pattern tried.
  const withHead = (methods: Set<string>) => (methods.has('GET') ? methods.add('HEAD') : methods);
  const concrete = new Map<string, ReadonlySet<string>>();
  for (const documents of bySegments.values())
    for (const documented of documents)
      if (documented.templates === 0) concrete.set(documented.path, withHead(new Set(documented.methods)));
  const methodsOf = (path: string): ReadonlySet<string> => {
    const known = concrete.get(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
    if (known) return known;
    let mostConcrete = Infinity;
    let methods = new Set<string>();
    for (const documented of bySegments.get(segments(path)) ?? []) {
      if (documented.templates > mostConcrete || !documented.pattern.test(path)) continue;
      if (documented.templates < mostConcrete) [mostConcrete, methods] = [documented.templates, new Set<string>()];
      for (const method of documented.methods) methods.add(method);
    }
    return withHead(methods);
  };
  return (req, res, next) => {
    const methods = methodsOf(req.path);
    if (methods.size === 0 || (methods.has(req.method) && req.method !== 'OPTIONS')) {
      next();
      return;
    }
    const allow = [...methods, 'OPTIONS'].join(', ');
    res.set('allow', allow);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next(new HttpError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}; use ${allow}`));
  };
}
