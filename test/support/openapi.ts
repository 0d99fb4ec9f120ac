import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

type Schema = Record<string, unknown>;

export interface DocumentedResponse {
  description: string;
  headers?: Record<string, { required?: boolean; schema: Schema }>;
  content?: Record<string, { schema: Schema }>;
}

export interface OpenApiOperation {
  operationId: string;
  security?: Record<string, string[]>[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, DocumentedResponse>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/**
 * The gateway's OpenAPI document, validated as OpenAPI 3.1 and with every $ref resolved, to check
 * real responses against it (STYLE.md: the public contract is checked against real responses).
 */
export class OpenApiContract {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true });
  // Header values are strings; coerce them to the documented type before validating.
  private readonly headerAjv = new Ajv2020({ strict: true, coerceTypes: true });
  private readonly validators = new Map<Schema, ValidateFunction>();

  private constructor(
    readonly document: OpenApiDocument,
    readonly resolved: OpenApiDocument,
    readonly validationErrors: unknown,
  ) {
    formats.default(this.ajv);
    formats.default(this.headerAjv);
  }

  /** Fetches /api/external/openapi.json from a gateway. */
  static async load(publicUrl: string): Promise<OpenApiContract> {
    const served = await fetch(`${publicUrl}/api/external/openapi.json`);
    if (served.status !== 200) throw new Error(`openapi.json: ${served.status}`);
    const document = (await served.json()) as OpenApiDocument;
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    const resolved = validator.resolveRefs() as unknown as OpenApiDocument;
    return new OpenApiContract(document, resolved, result.errors);
  }

  operation(method: string, path: string): OpenApiOperation {
    const operation = this.resolved.paths[path]?.[method];
    if (!operation) throw new Error(`the document has no ${method.toUpperCase()} ${path}`);
    return operation;
  }

  documented(method: string, path: string, status: number): DocumentedResponse {
    const response = this.operation(method, path).responses[String(status)];
    if (!response) throw new Error(`${method.toUpperCase()} ${path} does not document ${status}`);
    return response;
  }

  /** The compiled JSON body schema of a documented response. */
  bodySchema(method: string, path: string, status: number): ValidateFunction {
    const schema = this.documented(method, path, status).content?.['application/json']?.schema;
    if (!schema) throw new Error(`${method.toUpperCase()} ${path} ${status} documents no JSON body`);
    const validate = this.validators.get(schema) ?? this.ajv.compile(schema);
    this.validators.set(schema, validate);
    return validate;
  }

  /** Asserts status, media type, body and required headers match the document; returns the body. */
  async expectDocumented(response: Response, method: string, path: string): Promise<Record<string, unknown>> {
    const { headers = {} } = this.documented(method, path, response.status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    const validate = this.bodySchema(method, path, response.status);
    const operation = `${response.status} ${method.toUpperCase()} ${path}`;
    expect({ operation, body, errors: validate(body) ? [] : validate.errors }).toEqual({ operation, body, errors: [] });

    for (const [name, header] of Object.entries(headers)) {
      const value = response.headers.get(name);
      if (value === null) {
        expect({ operation, header: name, required: header.required ?? false }).toEqual({
          operation,
          header: name,
          required: false,
        });
        continue;
      }
      const fits = this.headerAjv.validate({ type: 'object', properties: { value: header.schema } }, { value });
      expect({ operation, header: name, value, fits }).toEqual({ operation, header: name, value, fits: true });
    }
    return body;
  }
}
