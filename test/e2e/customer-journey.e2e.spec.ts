import {
  businessBody,
  jsonOf,
  ownerBody,
  PDF_BYTES,
  PNG_BYTES,
  type CustomerCaller,
  type CustomerEventLog,
  type CustomerJson,
  type DocumentJson,
  type OwnerJson,
  type UploadJson,
} from '../support/customers.js';
import { Platform } from '../support/platform.js';

/**
 * issue 4 "Done when": the whole journey through the gateway, every call as a platform makes it
 * (seed 4.2's follow-up sequence): create a MINIMAL business customer → document → submit →
 * verified by review → upgrade to FULL with owners → owner ID files → submit → PROCESSING, with
 * customer.status_changed on Kafka at each status move and only then.
 */
describe('customers: the full journey from MINIMAL to FULL KYB (seed 3.1, 4.2, 6.1)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let caller: CustomerCaller;
  let events: CustomerEventLog;

  beforeAll(async () => {
    await platform.start();
    [caller, events] = await Promise.all([api.caller({ kybMinimalAllowed: true }), platform.customerEvents()]);
  });
  afterAll(async () => {
    await events?.stop();
    await platform.stop();
  });

  const post = async <T>(path: string, body: unknown, status: number): Promise<T> =>
    (await jsonOf<{ data: T }>(await api.call(caller.token, 'POST', path, body), status, `POST ${path}`)).data;

  /** Presigned URL → PUT the bytes exactly as told. */
  const upload = async (path: string, body: Record<string, unknown>, bytes: Buffer): Promise<string> => {
    const presigned = await post<UploadJson>(path, { ...body, content_length: bytes.length }, 201);
    const stored = await fetch(presigned.upload_url, {
      method: presigned.method,
      headers: presigned.headers,
      body: bytes,
    });
    expect(stored.status).toBe(200);
    return presigned.file_id;
  };

  it('seed 3.1, 4.2, 6.1: a MINIMAL business is verified, upgraded to FULL with owners, given owner ID files and re-submitted', async () => {
    // 1. A MINIMAL business customer (the platform is allow-listed: MINIMAL is its default, seed 5).
    const created = await post<CustomerJson>('/customer', businessBody(), 201);
    expect(created).toMatchObject({ kyb_scope: 'MINIMAL', verification_status: 'PENDING', owners: [], documents: [] });
    const id = created.id;

    // 2. Its formation document.
    const documentFile = await upload(
      `/customer/${id}/document/presigned-url`,
      { content_type: 'application/pdf' },
      PDF_BYTES,
    );
    const document = await post<DocumentJson>(
      `/customer/${id}/document`,
      { type: 'CAC_STATUS_REPORT', file_id: documentFile },
      201,
    );
    expect(document).toMatchObject({ status: 'PENDING', file: { file_id: documentFile } });

    // 3. Submit: PROCESSING (no owners needed on the MINIMAL path).
    const submitted = await post<CustomerJson>(`/customer/${id}/submit`, undefined, 200);
    expect(submitted).toMatchObject({ verification_status: 'PROCESSING', documents: [{ status: 'PROCESSING' }] });

    // 4. The back office approves the document and verifies the customer.
    const verified = await api.review(id, {
      documents: [{ id: document.id, status: 'APPROVED' }],
      verdict: 'VERIFIED',
    });
    expect(verified).toMatchObject({ verification_status: 'VERIFIED', kyb_scope: 'MINIMAL' });

    // 5. Upgrade to FULL with two owners: PENDING again, owners PENDING, editable again.
    const upgraded = await post<CustomerJson>(
      `/customer/${id}/upgrade-kyb-scope`,
      {
        owners: [
          ownerBody({ ownership_percentage: 75, id_document_type: 'passport' }),
          ownerBody({ first_name: 'Bola', ownership_percentage: 25, id_document_type: 'drivers_license' }),
        ],
        trading_name: 'Acme Trading',
      },
      200,
    );
    expect(upgraded).toMatchObject({
      kyb_scope: 'FULL',
      verification_status: 'PENDING',
      trading_name: 'Acme Trading',
      owners: [
        { ownership_percentage: 75, status: 'PENDING' },
        { first_name: 'Bola', ownership_percentage: 25, status: 'PENDING' },
      ],
      documents: [{ id: document.id, status: 'APPROVED' }],
    });

    // 6. Each owner's ID files, per owner and slot: a passport has a front; a driver's license both sides.
    const [passportHolder, licenseHolder] = upgraded.owners as [OwnerJson, OwnerJson];
    for (const [owner, slots] of [
      [passportHolder, ['id_document_front']],
      [licenseHolder, ['id_document_front', 'id_document_back']],
    ] as const) {
      for (const slot of slots) {
        const fileId = await upload(
          `/customer/${id}/owner/${owner.id}/file/presigned-url`,
          { slot, content_type: 'image/png' },
          PNG_BYTES,
        );
        const attached = await post<OwnerJson>(
          `/customer/${id}/owner/${owner.id}/files`,
          { slot, file_id: fileId },
          200,
        );
        expect(attached[slot]).toMatchObject({
          file_id: fileId,
          content_type: 'image/png',
          size_bytes: PNG_BYTES.length,
        });
      }
    }

    // 7. Submit again: PROCESSING under the FULL checks; the approved document is not re-reviewed.
    const resubmitted = await post<CustomerJson>(`/customer/${id}/submit`, undefined, 200);
    expect(resubmitted).toMatchObject({
      kyb_scope: 'FULL',
      verification_status: 'PROCESSING',
      owners: [{ status: 'PROCESSING' }, { status: 'PROCESSING' }],
      documents: [{ status: 'APPROVED' }],
    });
    expect(await api.getCustomer(caller.token, id)).toEqual(resubmitted);

    // Kafka: customer.created (for other services' projections), then one customer.status_changed per
    // status move, in order, and no other event.
    const changes = await events.waitFor(id, 4);
    expect(changes.map((change) => [change.oldStatus, change.newStatus, change.trigger, change.kybScope])).toEqual([
      ['PENDING', 'PROCESSING', 'submit', 'MINIMAL'],
      ['PROCESSING', 'VERIFIED', 'review', 'MINIMAL'],
      ['VERIFIED', 'PENDING', 'upgrade', 'FULL'],
      ['PENDING', 'PROCESSING', 'submit', 'FULL'],
    ]);
    expect(changes.every((change) => change.businessId === caller.businessId && change.key === id)).toBe(true);
    expect(events.allOf(id).map((received) => received.event.type)).toEqual([
      'customer.created',
      ...Array<string>(4).fill('customer.status_changed'),
    ]);

    // The trail: created, document, submitted, reviewed, upgraded, files attached, submitted.
    const actions = (await api.audit(id)).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['customer.created', 'customer.upgraded', 'customer.submitted']));
    expect(actions.indexOf('customer.upgraded')).toBeGreaterThan(actions.indexOf('customer.submitted'));
  });
});
