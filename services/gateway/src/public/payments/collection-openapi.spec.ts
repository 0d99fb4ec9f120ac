import type { OperationObject, ResponseObject, SchemaObject } from 'openapi3-ts/oas31';
import { openApiDocument } from '../../openapi/document.js';
import { HTTPS_URL_PATTERN } from '../../floor/text-boundary.js';

/** The virtual account, collection, refund and sandbox routes in the public OpenAPI document (issue 11). */
describe('the OpenAPI document of the collection routes', () => {
  const document = openApiDocument({ tokenRequestsPerMinute: 30 });
  const operation = (path: string, method: string) =>
    (document.paths?.[path] as Record<string, OperationObject> | undefined)?.[method];

  const bodyOf = (path: string) =>
    (operation(path, 'post')?.requestBody as { content: Record<string, { schema: SchemaObject }> }).content[
      'application/json'
    ]?.schema;

  it('documents the virtual account body as customer_id and currency only: account_name is gone (seed 9)', () => {
    expect(bodyOf('/api/external/virtual-account')).toMatchObject({
      additionalProperties: false,
      required: ['customer_id', 'currency'],
      properties: { customer_id: { type: 'string', format: 'uuid' } },
    });
    expect(Object.keys(bodyOf('/api/external/virtual-account')?.properties ?? {})).toEqual(['customer_id', 'currency']);
  });

  it('documents the collection body: description up to 255, redirect_url an https URI of at most 2048 characters (seed 8)', () => {
    const schema = bodyOf('/api/external/collection');
    expect(schema).toMatchObject({
      additionalProperties: false,
      required: ['customer_id', 'amount', 'currency', 'description'],
      properties: {
        amount: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        description: { type: 'string', minLength: 1, maxLength: 255 },
        redirect_url: { type: 'string', pattern: HTTPS_URL_PATTERN, maxLength: 2048 },
        reference: { type: 'string', minLength: 1, maxLength: 100 },
      },
    });
    expect(schema?.properties?.redirect_url).toMatchObject({ description: expect.stringMatching(/https/) });
  });

  it('documents the refund body: only transaction_id required; the sandbox outcomes take an empty body', () => {
    expect(bodyOf('/api/external/refund')).toMatchObject({
      additionalProperties: false,
      required: ['transaction_id'],
      properties: { reason: { maxLength: 255 }, reference: { maxLength: 100 }, amount: { minimum: 1 } },
    });
    expect(bodyOf('/api/external/sandbox/collection/{id}/pay')).toMatchObject({
      additionalProperties: false,
      properties: {},
    });
  });

  it('documents the crypto and Interac bodies: capitals for asset and network, CAD only, emails of at most 254, digits as a string', () => {
    expect(bodyOf('/api/external/collection/crypto/address')).toMatchObject({
      additionalProperties: false,
      required: ['customer_id', 'asset', 'network'],
      properties: { asset: { pattern: '^[A-Z]{2,10}$' }, network: { pattern: '^[A-Z]{2,20}$' } },
    });
    const interac = bodyOf('/api/external/collection/interac');
    expect(interac).toMatchObject({
      additionalProperties: false,
      required: ['customer_id', 'amount', 'payer_email', 'description'],
      properties: {
        amount: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        currency: { const: 'CAD' },
        payer_email: { type: 'string', pattern: expect.stringMatching(/@/), maxLength: 254 },
        description: { minLength: 1, maxLength: 255 },
        reference: { minLength: 1, maxLength: 100 },
      },
    });
    expect(bodyOf('/api/external/sandbox/collection/crypto/address/{id}/deposit')).toMatchObject({
      additionalProperties: false,
      required: ['asset_amount'],
      properties: { asset_amount: { type: 'string', pattern: '^[0-9]{1,30}$' } },
    });
    expect(bodyOf('/api/external/sandbox/collection/interac/incoming')).toMatchObject({
      additionalProperties: false,
      required: ['customer_id', 'amount', 'sender_name', 'sender_email'],
      properties: {
        sender_name: { maxLength: 100 },
        sender_email: { pattern: expect.stringMatching(/@/), maxLength: 254 },
      },
    });
    expect(bodyOf('/api/external/collection/interac/{id}/accept')).toMatchObject({
      additionalProperties: false,
      properties: {},
    });
  });

  it('shows a collection’s payer_email and crypto deposit, asset_amount a string of digits', () => {
    const details = document.components?.schemas?.CollectionDetails as SchemaObject;
    expect(Object.keys(details.properties ?? {}).slice(-2)).toEqual(['payer_email', 'crypto']);
    expect(details.properties?.crypto).toMatchObject({
      anyOf: [{ $ref: '#/components/schemas/CryptoDeposit' }, { type: 'null' }],
    });
    const deposit = document.components?.schemas?.CryptoDeposit as SchemaObject;
    expect(deposit.properties?.asset_amount).toMatchObject({ type: 'string' });
  });

  it('answers a transaction read with `refund` beside the Transaction fields, optional (it needs refund:read)', () => {
    const transaction = document.components?.schemas?.Transaction as SchemaObject;
    const withRefund = document.components?.schemas?.TransactionWithRefund as SchemaObject;
    expect(Object.keys(withRefund.properties ?? {})).toEqual([...Object.keys(transaction.properties ?? {}), 'refund']);
    expect(withRefund.required).toEqual(transaction.required);
    expect(withRefund.additionalProperties).toBe(false);
    expect(withRefund.properties?.refund).toMatchObject({
      anyOf: [{ $ref: '#/components/schemas/Refund' }, { type: 'null' }],
    });
    const read = operation('/api/external/transaction/{id}', 'get')?.responses?.['200'] as ResponseObject;
    expect(read.content?.['application/json']?.schema).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/TransactionWithRefund' } },
    });
  });

  it('names every refusal of payments on the new routes in their descriptions (facts of issue 11, decision 0015)', () => {
    const described = (path: string, method: string, status: string) =>
      (operation(path, method)?.responses?.[status] as ResponseObject | undefined)?.description ?? '';
    const CODES: [string, string, string, string[]][] = [
      [
        '/api/external/virtual-account',
        'post',
        '422',
        [
          ...['CUSTOMER_NOT_FOUND', 'CUSTOMER_NOT_VERIFIED', 'CURRENCY_NOT_ALLOWED_FOR_CUSTOMER'],
          ...['VIRTUAL_ACCOUNT_ALREADY_OPEN', 'UNKNOWN_CURRENCY', 'CURRENCY_OPERATION_NOT_SUPPORTED'],
        ],
      ],
      ['/api/external/virtual-account/{id}', 'get', '404', ['VIRTUAL_ACCOUNT_NOT_FOUND']],
      ['/api/external/virtual-account/{id}/close', 'post', '404', ['VIRTUAL_ACCOUNT_NOT_FOUND']],
      [
        '/api/external/collection',
        'post',
        '422',
        ['CUSTOMER_NOT_FOUND', 'INVALID_AMOUNT', 'UNKNOWN_CURRENCY', 'CURRENCY_OPERATION_NOT_SUPPORTED'],
      ],
      ['/api/external/collection', 'post', '409', ['REFERENCE_ALREADY_USED']],
      ['/api/external/collection/{id}', 'get', '404', ['COLLECTION_NOT_FOUND']],
      ['/api/external/refund', 'post', '404', ['TRANSACTION_NOT_FOUND']],
      ['/api/external/refund', 'post', '400', ['REFERENCE_USED_ON_ANOTHER_TRANSACTION']],
      [
        '/api/external/refund',
        'post',
        '422',
        [
          ...['NOT_A_COLLECTION', 'COLLECTION_NOT_SUCCESSFUL', 'REFUND_CURRENCY_NOT_SUPPORTED'],
          ...['REFUND_WINDOW_CLOSED', 'ALREADY_REFUNDED', 'PARTIAL_REFUND_NOT_SUPPORTED', 'INSUFFICIENT_FUNDS'],
        ],
      ],
      ['/api/external/refund/{id}', 'get', '404', ['REFUND_NOT_FOUND']],
      ['/api/external/sandbox/virtual-account/{id}/incoming-transfer', 'post', '403', ['SANDBOX_ONLY']],
      ['/api/external/sandbox/virtual-account/{id}/incoming-transfer', 'post', '404', ['VIRTUAL_ACCOUNT_NOT_FOUND']],
      ['/api/external/collection/crypto/address', 'post', '422', ['UNSUPPORTED_CRYPTO_NETWORK', 'CUSTOMER_NOT_FOUND']],
      [
        '/api/external/collection/interac',
        'post',
        '422',
        ['VALIDATION_FAILED', 'INVALID_AMOUNT', 'CUSTOMER_NOT_FOUND'],
      ],
      ['/api/external/collection/interac', 'post', '409', ['REFERENCE_ALREADY_USED']],
      ['/api/external/collection/interac/{id}/accept', 'post', '404', ['INTERAC_TRANSFER_NOT_FOUND']],
      ['/api/external/collection/interac/{id}/accept', 'post', '400', ['COLLECTION_NOT_PENDING']],
      ['/api/external/sandbox/collection/crypto/address/{id}/deposit', 'post', '404', ['CRYPTO_ADDRESS_NOT_FOUND']],
      ['/api/external/sandbox/collection/crypto/address/{id}/deposit', 'post', '422', ['INVALID_AMOUNT']],
      ['/api/external/sandbox/collection/crypto/address/{id}/deposit', 'post', '403', ['SANDBOX_ONLY']],
      [
        '/api/external/sandbox/collection/interac/incoming',
        'post',
        '422',
        ['VALIDATION_FAILED', 'INVALID_AMOUNT', 'CUSTOMER_NOT_FOUND'],
      ],
      ['/api/external/sandbox/collection/interac/incoming', 'post', '403', ['SANDBOX_ONLY']],
      ...['pay', 'decline', 'expire'].flatMap((action): [string, string, string, string[]][] => [
        [`/api/external/sandbox/collection/{id}/${action}`, 'post', '400', ['COLLECTION_NOT_PENDING']],
        [`/api/external/sandbox/collection/{id}/${action}`, 'post', '403', ['SANDBOX_ONLY']],
        [`/api/external/sandbox/collection/{id}/${action}`, 'post', '404', ['COLLECTION_NOT_FOUND']],
      ]),
    ];
    for (const [path, method, status, codes] of CODES) {
      for (const code of codes)
        expect(`${method} ${path} ${status}: ${described(path, method, status)}`).toContain(code);
    }
  });
});
