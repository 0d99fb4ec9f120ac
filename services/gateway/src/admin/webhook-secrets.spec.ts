import { webhookBackOffice } from '../../test/admin/webhook-back-office.js';
import { BUSINESS_ID, SIGNING_SECRET, WEBHOOK_ID } from '../../test/public/webhooks/fake-notification-service.js';

const ADMIN_TOKEN = 'admin-token-for-the-webhook-secret-spec';
const PATH = `/admin/businesses/${BUSINESS_ID}/webhook/signing-secret`;

/** The back office's rotation (decision 0065) on the admin listener, over a fake notification. */
describe('admin webhook signing-secret rotation', () => {
  const { backOffice, audits } = webhookBackOffice(ADMIN_TOKEN, 'req-admin-webhook-secret');

  it('rotates the registration of the business the path names, answers the new secret once, audits it', async () => {
    const response = await backOffice.admin('POST', `${PATH}/rotate`, { overlap_seconds: 0 });
    expect(response).toMatchObject({
      status: 200,
      body: { id: WEBHOOK_ID, signing_secret: SIGNING_SECRET, previous_signing_secret_last4: null },
    });
    expect(backOffice.calls.map((call) => [call.method, call.caller.businessId])).toEqual([
      ['getWebhook', BUSINESS_ID],
      ['rotateWebhookSecret', BUSINESS_ID],
    ]);
    expect(backOffice.calls[1]?.request).toMatchObject({ webhookId: WEBHOOK_ID, overlapSeconds: 0 });
    expect(audits).toEqual([
      {
        businessId: BUSINESS_ID,
        action: 'webhook.secret_rotated',
        target: WEBHOOK_ID,
        details: 'Signing secret rotated by the back office: …kYz1 signs now; the previous one stopped at once',
      },
    ]);
  });

  it('ends the overlap, without the secret in the answer, and audits it', async () => {
    const response = await backOffice.admin('DELETE', `${PATH}/previous`);
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('signing_secret');
    expect(backOffice.calls.map((call) => call.method)).toEqual(['getWebhook', 'endWebhookSecretOverlap']);
    expect(audits).toMatchObject([{ action: 'webhook.secret_overlap_ended', target: WEBHOOK_ID }]);
  });

  it('refuses a path that names no business, and a bad overlap, before calling notification', async () => {
    expect(await backOffice.admin('POST', '/admin/businesses/nope/webhook/signing-secret/rotate')).toMatchObject({
      status: 404,
      body: { code: 'BUSINESS_NOT_FOUND' },
    });
    expect(await backOffice.admin('POST', `${PATH}/rotate`, { overlap_seconds: 604_801 })).toMatchObject({
      status: 422,
      body: { errors: { overlap_seconds: ['must be from 0 to 604800 (7 days)'] } },
    });
    expect(backOffice.calls).toHaveLength(0);
    expect(audits).toHaveLength(0);
  });
});
