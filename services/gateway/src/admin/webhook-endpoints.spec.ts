import { WebhookDestination } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { webhookBackOffice } from '../../test/admin/webhook-back-office.js';
import { BUSINESS_ID, WEBHOOK_ID } from '../../test/public/webhooks/fake-notification-service.js';

const ADMIN_TOKEN = 'admin-token-for-the-webhook-endpoint-spec';
const PATH = `/admin/businesses/${BUSINESS_ID}/webhook/endpoint`;

/** The back office's enabling of a disabled URL (decision 0068) on the admin listener, over a fake notification. */
describe('admin webhook URL enabling', () => {
  const { backOffice, audits } = webhookBackOffice(ADMIN_TOKEN, 'req-admin-webhook-endpoint');

  it('enables the URL of the business the path names, without replay when asked, and audits it', async () => {
    const response = await backOffice.admin('POST', `${PATH}/payout_url/enable`, { replay: false });
    expect(response).toMatchObject({ status: 200, body: { queued: 4, webhook: { id: WEBHOOK_ID } } });
    expect(backOffice.calls.map((call) => [call.method, call.caller.businessId])).toEqual([
      ['getWebhook', BUSINESS_ID],
      ['enableWebhookUrl', BUSINESS_ID],
    ]);
    expect(backOffice.calls[1]?.request).toMatchObject({
      webhookId: WEBHOOK_ID,
      urlKind: WebhookDestination.PAYOUT_URL,
      replay: false,
    });
    expect(audits).toEqual([
      {
        businessId: BUSINESS_ID,
        action: 'webhook.url_enabled',
        target: WEBHOOK_ID,
        details: 'payout_url enabled by the back office: held deliveries ended, not replayed',
      },
    ]);
  });

  it('refuses a kind that is no URL field with 422 naming it; no audit', async () => {
    expect(await backOffice.admin('POST', `${PATH}/url/enable`)).toMatchObject({
      status: 422,
      body: { code: 'VALIDATION_FAILED', errors: { kind: [expect.stringMatching(/got "url"/)] } },
    });
    expect(audits).toHaveLength(0);
  });
});
