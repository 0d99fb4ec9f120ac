import type {
  HeadersObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  ResponsesObject,
  SchemaObject,
  SecurityRequirementObject,
} from 'openapi3-ts/oas31';
import type { DocumentedRoute, RouteResponse } from '../http/route-table.js';
import { errorExample, requestIdHeader } from './error-responses.js';
import { exampleOf } from '../floor/examples.js';
import { ref } from '../http/json-schema.js';
import { refusingControlCharacters } from '../floor/text-boundary.js';

type Schemas = Readonly<Record<string, SchemaObject | ReferenceObject>>;

/** What every operation of one listener shares; the route adds its own path, query, body and responses. */
export interface ListenerConventions {
  /** Who may call, e.g. the OAuth scope the route requires. */
  security: SecurityRequirementObject[];
  /** The operation's description: what its caller needs (a scope, the admin token). */
  description: string;
  tag: string;
  /** Header parameters every operation takes, after the path's and the query's. */
  headers: ReferenceObject[];
  /** Headers every success carries beyond x-request-id (the public API's rate-limit headers). */
  successHeaders: HeadersObject;
  /** The errors every operation can answer besides its own (error-responses.ts routeErrors). */
  errors: ResponsesObject;
  /**
   * components.schemas, which the examples built from a schema read its $refs in; without them the
   * operations carry no examples (the admin API's, which no "Try it out" page serves).
   */
  schemas?: Schemas;
}

/** /api/external/customer/{id} names the resource {id}; each template is a required path parameter. */
export const pathParameters = (path: string): ParameterObject[] =>
  [...path.matchAll(/\{([^}]+)\}/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));

/** A route's query schema (one closed object) as one parameter per property. */
const queryParameters = ({ query }: DocumentedRoute): ParameterObject[] =>
  Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query?.required?.includes(name) ?? false,
    schema: refusingControlCharacters(schema),
  }));

const exampleIn = (schema: SchemaObject | ReferenceObject, schemas: Schemas | undefined) =>
  schemas ? { example: exampleOf(schema, schemas) } : {};

function routeResponse(
  status: number,
  { description, schema, headers, mediaType = 'application/json', example }: RouteResponse,
  { successHeaders, schemas }: ListenerConventions,
): ResponseObject {
  if (status >= 400) {
    return {
      description,
      headers: requestIdHeader,
      content: {
        'application/json': schema
          ? { schema, ...exampleIn(schema, schemas) }
          : { schema: ref('schemas', 'Error'), ...(schemas ? { example: errorExample(status, description) } : {}) },
      },
    };
  }
  return {
    description,
    headers: { ...requestIdHeader, ...successHeaders, ...headers },
    ...(schema
      ? {
          content: {
            [mediaType]: { schema, ...(example === undefined ? exampleIn(schema, schemas) : { example }) },
          },
        }
      : {}),
  };
}

/** A route of a table as its OpenAPI operation, under its listener's conventions. */
export function routeOperation(route: DocumentedRoute, conventions: ListenerConventions): OperationObject {
  const own = Object.entries(route.responses).map(([status, response]) => [
    status,
    routeResponse(Number(status), response, conventions),
  ]);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: conventions.description,
    tags: [conventions.tag],
    security: conventions.security,
    parameters: [...pathParameters(route.path), ...queryParameters(route), ...conventions.headers],
    ...(route.requestBody
      ? {
          requestBody: {
            required: route.requestBodyRequired ?? true,
            content: {
              'application/json': {
                schema: refusingControlCharacters(route.requestBody),
                // What "Try it out" sends: the body's own example, else one built from its schema.
                ...exampleIn(route.requestBody, conventions.schemas),
              },
            },
          },
        }
      : {}),
    responses: { ...conventions.errors, ...Object.fromEntries(own) },
  };
}
