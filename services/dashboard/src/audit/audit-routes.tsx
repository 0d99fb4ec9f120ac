import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { AuditEntry } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { Router } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { queryText } from '../http/form.js';
import { Moment } from '../layout/components.js';
import { sendPage } from '../layout/render.js';
import { memberCall, memberOf, requireMember } from '../members/member-access.js';

function AuditTable({ entries, nextCursor }: { entries: readonly AuditEntry[]; nextCursor?: string }) {
  if (entries.length === 0) return <p>Nothing has been changed yet.</p>;
  return (
    <>
      <table>
        <caption className="visually-hidden">Changes to this business, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Target</th>
            <th scope="col">Details</th>
            <th scope="col">From address</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <Moment at={entry.createdAt ? timestampDate(entry.createdAt) : undefined} never="" />
              </td>
              <td>{entry.actorEmail || 'Corridor back office'}</td>
              <th scope="row">
                <code>{entry.action}</code>
              </th>
              <td>
                <code>{entry.target}</code>
              </td>
              <td>{entry.details}</td>
              <td>{entry.actorAddress}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {nextCursor ? (
        <p>
          <a href={`/audit?cursor=${encodeURIComponent(nextCursor)}`}>Older entries</a>
        </p>
      ) : null}
    </>
  );
}

/** /audit: who changed what, newest first (identity's ListAudit). */
export function auditRouter({ clients }: DashboardDependencies): Router {
  const router = Router();
  router.get('/audit', requireMember('read_audit'), async (req, res) => {
    const answer = await clients.members.listAudit(
      { businessId: memberOf(res).businessId, page: { cursor: queryText(req, 'cursor'), limit: 100 } },
      memberCall(res),
    );
    sendPage(res, 200, 'Audit log', <AuditTable entries={answer.entries} nextCursor={answer.page?.nextCursor} />);
  });
  return router;
}
