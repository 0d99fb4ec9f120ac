import type { Logger } from '@corridor/logging';
import type { Request, Response } from 'express';
import type { PageClients } from '../clients.js';
import { actorOf, memberCall, memberOf } from './member-access.js';

/**
 * Records a change made through the dashboard in identity's audit log (who, what, target, address).
 * Member changes are recorded by identity itself; this is for the rest (credentials, webhooks). The
 * change has happened by now, so a failure to record it is logged loudly rather than shown as failed.
 */
export async function recordAudit(
  { clients, logger }: { clients: PageClients; logger: Logger },
  req: Request,
  res: Response,
  change: { action: string; target: string; details: string },
): Promise<void> {
  try {
    await clients.members.recordAudit(
      { businessId: memberOf(res).businessId, actor: actorOf(req, res), ...change },
      memberCall(res),
    );
  } catch (error) {
    logger.error({ err: error, ...change }, 'change made but not recorded in the audit log');
  }
}
