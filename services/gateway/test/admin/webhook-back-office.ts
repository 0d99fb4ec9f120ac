import { create } from '@bufbuild/protobuf';
import { RecordAuditResponseSchema } from '@corridor/contracts/corridor/identity/v1/member_service_pb';
import type { AppOptions } from '../../src/app.js';
import { startFakeNotificationService } from '../public/webhooks/fake-notification-service.js';
import { adminUnderTest } from './admin-listener.fixture.js';

/**
 * The admin listener over a fake notification, for the back office's webhook routes (decisions 0065,
 * 0068), with the audit entries identity was asked to record; cleared before each test.
 */
export function webhookBackOffice(adminToken: string, requestId: string) {
  const audits: object[] = [];
  const backOffice = adminUnderTest(
    startFakeNotificationService,
    // Only recordAudit of identity's members is called here.
    (started) => ({
      notification: started.client,
      members: {
        recordAudit: async (request: object) => {
          audits.push(request);
          return create(RecordAuditResponseSchema);
        },
      } as unknown as AppOptions['clients']['members'],
    }),
    adminToken,
    requestId,
  );
  beforeEach(() => {
    audits.length = 0;
  });
  return { backOffice, audits };
}
