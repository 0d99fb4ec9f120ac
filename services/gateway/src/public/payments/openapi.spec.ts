import type { OperationObject, ParameterObject, ResponseObject, SchemaObject } from 'openapi3-ts/oas31';
import { openApiDocument } from '../../openapi/document.js';
import { PAYMENT_ROUTES } from './index.js';

/** The payments part of the public OpenAPI document (the routes' table is its only source). */
describe('the OpenAPI document of the payments routes', () => {
  const document = openApiDocument({ tokenRequestsPerMinute: 30 });
  const operation = (path: string, method: string) =>
    (document.paths?.[path] as Record<string, OperationObject> | undefined)?.[method];

  /** method, path, scope, success statuses, [query parameter, required][] */
  const ROUTES = [
    ['get', '/api/external/currency', 'currency:read', '200', []],
    [
      'get',
      '/api/external/rates',
      'rates:read',
      '200',
      [
        ['from', true],
        ['to', true],
      ],
    ],
    [
      'get',
      '/api/external/fees',
      'fees:read',
      '200',
      [
        ['type', true],
        ['currency', true],
        ['amount', true],
      ],
    ],
    ['get', '/api/external/wallet', 'wallet:read', '200', []],
    ['post', '/api/external/swap', 'swap:create', '201', []],
    ['get', '/api/external/transaction/{id}', 'transaction:read', '200', []],
    [
      'get',
      '/api/external/transaction',
      'transaction:read',
      '200',
      [
        ...[
          ['status', false],
          ['type', false],
          ['currency', false],
          ['reference', false],
        ],
        ...[
          ['from', false],
          ['to', false],
          ['cursor', false],
          ['per_page', false],
        ],
      ],
    ],
    ['post', '/api/external/payout', 'payout:create', '201', []],
    ['get', '/api/external/payout/{id}', 'transaction:read', '200', []],
    [
      'get',
      '/api/external/bank',
      'bank:read',
      '200',
      [
        ['country', false],
        ['currency', false],
      ],
    ],
    [
      'get',
      '/api/external/bank/account-lookup',
      'bank:read',
      '200',
      [
        ['bank_code', true],
        ['account_number', true],
      ],
    ],
    [
      'get',
      '/api/external/beneficiary',
      'beneficiary:read',
      '200',
      [
        ['cursor', false],
        ['per_page', false],
      ],
    ],
    ['get', '/api/external/beneficiary/{id}', 'beneficiary:read', '200', []],
    ['post', '/api/external/virtual-account', 'virtual-account:create', '201', []],
    [
      'get',
      '/api/external/virtual-account',
      'virtual-account:read',
      '200',
      [
        ['customer_id', false],
        ['currency', false],
        ['status', false],
        ['cursor', false],
        ['per_page', false],
      ],
    ],
    ['get', '/api/external/virtual-account/identification-types', 'virtual-account:read', '200', []],
    ['get', '/api/external/virtual-account/{id}', 'virtual-account:read', '200', []],
    ['post', '/api/external/virtual-account/{id}/close', 'virtual-account:close', '200', []],
    ['post', '/api/external/collection', 'collection:create', '201', []],
    ['get', '/api/external/collection/{id}', 'transaction:read', '200', []],
    ['get', '/api/external/collection/crypto/networks', 'collection:crypto:create', '200', []],
    // Decision 0015: asking again for a customer's address answers the same one, 200.
    ['post', '/api/external/collection/crypto/address', 'collection:crypto:create', '200,201', []],
    ['post', '/api/external/collection/interac', 'collection:interac:create', '201', []],
    ['post', '/api/external/collection/interac/{id}/accept', 'collection:interac:accept', '200', []],
    // seed 4.4: the same reference on the same collection answers that refund again, 200.
    ['post', '/api/external/refund', 'refund:create', '200,201', []],
    ['get', '/api/external/refund/{id}', 'refund:read', '200', []],
    ['post', '/api/external/sandbox/virtual-account/{id}/incoming-transfer', 'virtual-account:create', '201', []],
    ['post', '/api/external/sandbox/collection/{id}/pay', 'collection:create', '200', []],
    ['post', '/api/external/sandbox/collection/{id}/decline', 'collection:create', '200', []],
    ['post', '/api/external/sandbox/collection/{id}/expire', 'collection:create', '200', []],
    ['post', '/api/external/sandbox/collection/crypto/address/{id}/deposit', 'collection:crypto:create', '201', []],
    ['post', '/api/external/sandbox/collection/interac/incoming', 'collection:interac:accept', '201', []],
  ] as const;

  it('has exactly these payments routes', () => {
    expect(PAYMENT_ROUTES.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      ROUTES.map(([method, path]) => `${method} ${path}`).sort(),
    );
  });

  it.each(ROUTES)('%s %s requires %s, answers %s with a closed JSON body, documents its query', (...row) => {
    const [method, path, scope, statuses, query] = row;
    const op = operation(path, method);
    expect(op?.security).toEqual([{ oauth2: [scope] }]);
    expect(Object.keys(op?.responses ?? {}).filter((code) => code.startsWith('2'))).toEqual(statuses.split(','));
    for (const status of statuses.split(',')) {
      const success = op?.responses?.[status] as ResponseObject;
      expect(success.content?.['application/json']?.schema).toMatchObject({ additionalProperties: false });
    }
    const inQuery = (op?.parameters as ParameterObject[]).filter((parameter) => parameter.in === 'query');
    expect(inQuery.map(({ name, required }) => [name, required])).toEqual(query);
    if (!path.endsWith('{id}')) expect(op?.responses?.['422']).toBeDefined();
  });

  it('documents per_page as an integer from 1 to 100 that defaults to 15', () => {
    const perPage = (operation('/api/external/transaction', 'get')?.parameters as ParameterObject[]).find(
      ({ name }) => name === 'per_page',
    );
    expect(perPage?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 15 });
  });

  it('documents the swap body as closed, amount a positive safe integer, amount_side defaulting to from', () => {
    const body = operation('/api/external/swap', 'post')?.requestBody as {
      content: Record<string, { schema: SchemaObject }>;
    };
    const schema = body.content['application/json']?.schema;
    expect(schema).toMatchObject({
      additionalProperties: false,
      required: ['from_currency', 'to_currency', 'amount'],
      properties: {
        amount: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        amount_side: { enum: ['from', 'to'], default: 'from' },
        quote_id: { type: 'string', format: 'uuid' },
      },
    });
    expect(Object.keys(schema?.properties ?? {})).toEqual([
      'from_currency',
      'to_currency',
      'amount',
      'amount_side',
      'quote_id',
      'reference',
    ]);
  });

  it('names the Transaction fields of the contract, every one required and nothing else', () => {
    const transaction = document.components?.schemas?.Transaction as SchemaObject;
    const fields = ['id', 'type', 'status', 'currency', 'amount', 'fee', 'net', 'reference', 'description'];
    const details = ['refund_status', 'swap_details', 'collection_details', 'refund_details'];
    const all = [...fields, ...details, 'created_at', 'updated_at'];
    expect(Object.keys(transaction.properties ?? {})).toEqual(all);
    expect(transaction.required).toEqual(all);
    expect(transaction.additionalProperties).toBe(false);
  });

  it('keeps every payments component closed, every property required (nullable where it may be absent)', () => {
    const payouts = ['Bank', 'PayoutDestination', 'Payout', 'Beneficiary'];
    const collections = ['VirtualAccount', 'IdentificationType', 'CollectionDetails', 'Refund'];
    const cryptoInterac = ['CryptoDeposit', 'CryptoNetwork', 'CryptoAddress'];
    for (const name of [
      ...['Currency', 'RateQuote', 'FeeBreakdown', 'Wallet', 'SwapDetails', 'Transaction'],
      ...payouts,
      ...collections,
      ...cryptoInterac,
    ]) {
      const schema = document.components?.schemas?.[name] as SchemaObject;
      expect(schema.additionalProperties).toBe(false);
      expect([...(schema.required ?? [])].sort()).toEqual(Object.keys(schema.properties ?? {}).sort());
      // Inside the document: no dialect or id of their own, which validators would trip on.
      expect(schema).not.toHaveProperty('$schema');
      expect(schema).not.toHaveProperty('$id');
    }
  });

  it('documents the payout body as closed: amount a positive safe integer, narration and reference required, save_beneficiary false by default', () => {
    const body = operation('/api/external/payout', 'post')?.requestBody as {
      content: Record<string, { schema: SchemaObject }>;
    };
    const schema = body.content['application/json']?.schema;
    expect(schema).toMatchObject({
      additionalProperties: false,
      required: ['amount', 'currency', 'narration', 'reference'],
      properties: {
        amount: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        narration: { type: 'string', minLength: 1, maxLength: 100 },
        reference: { type: 'string', minLength: 1, maxLength: 100 },
        bank_code: { type: 'string', pattern: '^[A-Za-z0-9]{3,11}$' },
        account_number: { type: 'string', pattern: '^[A-Za-z0-9]{4,34}$' },
        beneficiary_id: { type: 'string', format: 'uuid' },
        save_beneficiary: { type: 'boolean', default: false },
      },
    });
    expect(Object.keys(schema?.properties ?? {})).toEqual([
      ...['amount', 'currency', 'bank_code', 'account_number', 'beneficiary_id'],
      ...['narration', 'reference', 'save_beneficiary'],
    ]);
  });

  it('answers a payout with its destination by reference, and beneficiaries with the destination’s fields inline', () => {
    const payout = document.components?.schemas?.Payout as SchemaObject;
    expect(Object.keys(payout.properties ?? {})).toEqual([
      ...['id', 'status', 'amount', 'fee', 'currency', 'reference', 'narration', 'destination'],
      ...['beneficiary_id', 'failure_reason', 'created_at', 'updated_at', 'completed_at', 'reversed_at'],
    ]);
    expect(payout.properties?.destination).toEqual({ $ref: '#/components/schemas/PayoutDestination' });
    const beneficiary = document.components?.schemas?.Beneficiary as SchemaObject;
    expect(Object.keys(beneficiary.properties ?? {})).toEqual([
      ...['id', 'bank_code', 'bank_name', 'account_number', 'account_name', 'currency'],
      ...['created_at', 'last_used_at'],
    ]);
  });
});
