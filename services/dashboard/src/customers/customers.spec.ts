import { CustomerType, IdDocumentType, VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { startDashboard, type Dashboard, type TestBrowser } from '../../test/testing/dashboard-harness.js';
import { BUSINESS_ID, fakeMember, OTHER_BUSINESS_ID } from '../../test/testing/fake-identity.js';
import {
  businessCustomer,
  CUSTOMER_ID,
  individualCustomer,
  INDIVIDUAL_ID,
  OTHER_CUSTOMER_ID,
} from '../../test/customers/customer.fixtures.js';

const MARKUP = '<script>alert(1)</script>';
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;';

describe('customers', () => {
  let dashboard: Dashboard;
  let owner: TestBrowser;
  let viewer: TestBrowser;
  const calls = (method: string) => dashboard.customers.calls.filter((call) => call.method === method);

  beforeAll(async () => {
    dashboard = await startDashboard();
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com' }));
    dashboard.identity.add(fakeMember(2, MemberRole.VIEWER, { email: 'viewer@example.com' }));
    owner = dashboard.browser();
    await owner.signIn('owner@example.com');
    viewer = dashboard.browser();
    await viewer.signIn('viewer@example.com');
  });
  afterAll(() => dashboard.close());
  beforeEach(() => {
    dashboard.customers.calls.length = 0;
    dashboard.customers.answers.clear();
    dashboard.customers.answers.set('listCustomers', () => ({
      customers: [businessCustomer(), individualCustomer()],
      cursorPage: { nextCursor: 'next-cursor-1', limit: 15 },
    }));
    dashboard.customers.answers.set('getCustomer', (request) => {
      if (request.customerId === CUSTOMER_ID) return { customer: businessCustomer() };
      if (request.customerId === INDIVIDUAL_ID) return { customer: individualCustomer() };
      throw notFound('CUSTOMER_NOT_FOUND', 'no such customer');
    });
  });

  it('lists customers with their columns, for the member’s business, linking KYC sessions', async () => {
    const page = await owner.get('/customers');
    expect(page.status).toBe(200);
    for (const text of ['Acme Ltd', 'Ngozi Eze', 'finance@acme.example', 'REJECTED', 'PENDING', 'FULL', 'business']) {
      expect(page.html).toContain(text);
    }
    expect(page.html).toContain(`href="/customers/${CUSTOMER_ID}"`);
    expect(page.html).toContain('href="/kyc-sessions"');
    expect(page.html).toContain('<th scope="col">Verification status</th>');
    expect(page.html).toContain('href="/customers?cursor=next-cursor-1"');
    const [call] = calls('listCustomers');
    expect(call?.request).toMatchObject({ paginate: true, cursorPage: { cursor: '' } });
    expect(call?.caller).toMatchObject({
      businessId: BUSINESS_ID,
      credentialId: 'member:00000000-0000-4000-8000-000000000001',
    });
  });

  it('passes every filter and the cursor to ListCustomers, and keeps them in the page links', async () => {
    dashboard.customers.answers.set('listCustomers', () => ({
      customers: [businessCustomer()],
      cursorPage: { nextCursor: 'older', previousCursor: 'newer', limit: 15 },
    }));
    const page = await owner.get(
      '/customers?email=+finance%40acme.example+&registration_number=RC-1234&id_number=A1&verification_status=REJECTED&type=business&cursor=c1',
    );
    expect(page.status).toBe(200);
    expect(calls('listCustomers')[0]?.request).toMatchObject({
      email: 'finance@acme.example',
      registrationNumber: 'RC-1234',
      idNumber: 'A1',
      verificationStatus: VerificationStatus.REJECTED,
      type: CustomerType.BUSINESS,
      paginate: true,
      cursorPage: { cursor: 'c1' },
    });
    const filters =
      'email=finance%40acme.example&amp;id_number=A1&amp;registration_number=RC-1234&amp;verification_status=REJECTED&amp;type=business';
    expect(page.html).toContain(`href="/customers?${filters}&amp;cursor=older"`);
    expect(page.html).toContain(`href="/customers?${filters}&amp;cursor=newer"`);
    expect(page.html).toContain('Next page');
    expect(page.html).toContain('Previous page');
    // The form shows the filters again.
    expect(page.html).toContain('value="RC-1234"');
    expect(page.html).toMatch(/<option value="REJECTED" selected="">/);
  });

  it('names a bad filter on a 422 page without asking customer-kyb', async () => {
    const page = await owner.get('/customers?verification_status=DONE&type=robot');
    expect(page.status).toBe(422);
    expect(page.html).toContain('verification_status must be one of PENDING, PROCESSING, VERIFIED, REJECTED');
    expect(page.html).toContain('type must be one of individual, business');
    const repeated = await owner.get('/customers?email=a@example.com&email=b@example.com');
    expect(repeated.status).toBe(422);
    expect(repeated.html).toContain('email is given more than once');
    expect((await owner.get(`/customers?email=${'x'.repeat(256)}`)).status).toBe(422);
    expect(calls('listCustomers')).toHaveLength(0);
  });

  it('shows a cursor customer-kyb refuses as a 422, not a 500', async () => {
    dashboard.customers.answers.set('listCustomers', () => {
      throw invalidArgument('cursor is not a cursor this API returned', {
        cursor: ['is not a cursor this API returned'],
      });
    });
    const page = await owner.get('/customers?cursor=forged');
    expect(page.status).toBe(422);
    expect(page.html).toContain('cursor is not a cursor this API returned');
  });

  it('shows a business customer: statuses, owners, documents, review comments and what is still missing', async () => {
    const page = await owner.get(`/customers/${CUSTOMER_ID}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Acme Ltd</h1>');
    expect(page.html.match(/<h1/g)).toHaveLength(1);
    for (const text of [
      'REJECTED',
      'FULL',
      'Ada Obi',
      'Director, beneficial owner, has control',
      '100%',
      'the ID photo is blurred',
      'CERTIFICATE_OF_INCORPORATION',
      'APPROVED',
      'Uploaded (application/pdf, 98,765 bytes)',
      'RC-1234',
      'Ada Obi: id_document_back is required before submitting',
      `href="/kyc-sessions?customer_id=${CUSTOMER_ID}"`,
    ]) {
      expect(page.html).toContain(text);
    }
    expect(calls('getCustomer')[0]).toMatchObject({
      request: { customerId: CUSTOMER_ID },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('shows an individual: ID files and the fields submit still needs', async () => {
    const page = await owner.get(`/customers/${INDIVIDUAL_ID}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Ngozi Eze</h1>');
    expect(page.html).toContain('Uploaded (image/jpeg, 2,048 bytes)');
    expect(page.html).toContain('date_of_birth is required before submitting');
    expect(page.html).toContain('id_number is required before submitting');
    expect(page.html).not.toContain('KYB scope</dt>');
  });

  it('adds ownership as decimals: 33.33 + 33.33 + 33.34 is 100', async () => {
    const owner33 = (n: number, percentage: string) => ({
      id: `7e2f8b0a-0000-4000-8000-00000000a00${n}`,
      data: { firstName: `Owner${n}`, ownershipPercentage: percentage, idDocumentType: IdDocumentType.PASSPORT },
      idFiles: [{ fileId: `f${n}`, slot: 'id_document_front', contentType: 'image/png', sizeBytes: 1n }],
    });
    dashboard.customers.answers.set('getCustomer', () => ({
      customer: businessCustomer({
        verificationStatus: VerificationStatus.PENDING,
        owners: [owner33(1, '33.33'), owner33(2, '33.33'), owner33(3, '33.34')],
      }),
    }));
    const page = await owner.get(`/customers/${CUSTOMER_ID}`);
    expect(page.html).not.toContain('Still needed before submitting');
    dashboard.customers.answers.set('getCustomer', () => ({
      customer: businessCustomer({
        verificationStatus: VerificationStatus.PENDING,
        owners: [owner33(1, '33.33'), owner33(2, '33.33')],
      }),
    }));
    expect((await owner.get(`/customers/${CUSTOMER_ID}`)).html).toContain('must sum to exactly 100');
  });

  it('links a customer under review to the sandbox tools, for members who may use them', async () => {
    dashboard.customers.answers.set('getCustomer', () => ({
      customer: businessCustomer({ verificationStatus: VerificationStatus.PROCESSING }),
    }));
    const link = `href="/sandbox?customer_id=${CUSTOMER_ID}"`;
    expect((await owner.get(`/customers/${CUSTOMER_ID}`)).html).toContain(link);
    expect((await viewer.get(`/customers/${CUSTOMER_ID}`)).html).not.toContain(link);
    dashboard.customers.answers.set('getCustomer', () => ({
      customer: businessCustomer({ verificationStatus: VerificationStatus.VERIFIED }),
    }));
    expect((await owner.get(`/customers/${CUSTOMER_ID}`)).html).not.toContain(link);
  });

  it('answers 404 for another business’s customer, and for a malformed id without calling', async () => {
    expect((await owner.get(`/customers/${OTHER_CUSTOMER_ID}`)).status).toBe(404);
    expect(calls('getCustomer')[0]?.caller).toMatchObject({ businessId: BUSINESS_ID });
    // Even should an answer name another business, it is not shown.
    dashboard.customers.answers.set('getCustomer', () => ({
      customer: businessCustomer({ id: OTHER_CUSTOMER_ID, businessId: OTHER_BUSINESS_ID }),
    }));
    const leaked = await owner.get(`/customers/${OTHER_CUSTOMER_ID}`);
    expect(leaked.status).toBe(404);
    expect(leaked.html).not.toContain('Acme Ltd');
    dashboard.customers.calls.length = 0;
    expect((await owner.get('/customers/not-a-uuid')).status).toBe(404);
    expect((await owner.get('/customers/1%27%20or%201=1')).status).toBe(404);
    expect(calls('getCustomer')).toHaveLength(0);
  });

  it('renders markup in a customer’s fields as text', async () => {
    const hostile = businessCustomer({
      data: { case: 'business', value: { country: 'NG', email: MARKUP, businessName: MARKUP } },
      owners: [
        {
          id: 'o1',
          data: { firstName: MARKUP, title: MARKUP },
          adminComments: [MARKUP],
        },
      ],
    });
    dashboard.customers.answers.set('listCustomers', () => ({ customers: [hostile], cursorPage: { limit: 15 } }));
    dashboard.customers.answers.set('getCustomer', () => ({ customer: hostile }));
    for (const path of ['/customers', `/customers/${CUSTOMER_ID}`, `/customers?email=${encodeURIComponent(MARKUP)}`]) {
      const page = await owner.get(path);
      expect(page.status).toBe(200);
      expect(page.html).not.toContain(MARKUP);
      expect(page.html).toContain(ESCAPED);
    }
  });

  it('goes to a customer by id, and names an id that is none', async () => {
    const found = await owner.get(`/customers/go?customer_id=+${CUSTOMER_ID.toUpperCase()}+`);
    expect(found).toMatchObject({ status: 303, location: `/customers/${CUSTOMER_ID}` });
    const wrong = await owner.get(`/customers/go?customer_id=${encodeURIComponent(MARKUP)}`);
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain('This is not a customer id (a uuid).');
    expect(wrong.html).not.toContain(MARKUP);
    expect(calls('getCustomer')).toHaveLength(0);
  });

  it('lets a viewer read, shows no buttons, and changes nothing by POST', async () => {
    const list = await viewer.get('/customers');
    expect(list.status).toBe(200);
    const detail = await viewer.get(`/customers/${CUSTOMER_ID}`);
    expect(detail.status).toBe(200);
    // The only POST form is the layout's sign-out: these pages are read-only.
    expect(detail.html.match(/method="post"/g)).toHaveLength(1);
    expect(calls('getCustomer')[0]?.caller).toMatchObject({
      businessId: BUSINESS_ID,
      credentialId: 'member:00000000-0000-4000-8000-000000000002',
    });
    expect((await viewer.post('/customers', { csrf_token: '' })).status).toBe(403);
    await viewer.get('/customers');
    expect((await viewer.post(`/customers/${CUSTOMER_ID}`)).status).toBe(404);
    expect(
      dashboard.customers.calls.filter((call) => call.method !== 'listCustomers' && call.method !== 'getCustomer'),
    ).toHaveLength(0);
  });

  it('sends the signed-out browser to sign in', async () => {
    const page = await dashboard.browser().get('/customers');
    expect(page).toMatchObject({ status: 303, location: '/sign-in' });
  });
});
