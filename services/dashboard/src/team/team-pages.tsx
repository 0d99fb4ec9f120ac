import { timestampDate } from '@bufbuild/protobuf/wkt';
import { MemberStatus, type Member } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { ErrorSummary, Field, Moment, Notice, PostForm } from '../layout/components.js';
import { ROLE_NAMES, roleNameOf, type RoleName } from '../members/roles.js';

const STATUS_TEXT: Record<MemberStatus, string> = {
  [MemberStatus.UNSPECIFIED]: 'Unknown',
  [MemberStatus.INVITED]: 'Invited',
  [MemberStatus.ACTIVE]: 'Active',
  [MemberStatus.REMOVED]: 'Removed',
};

function RoleSelect({ id, name, selected, label }: { id: string; name: string; selected?: RoleName; label: string }) {
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <select id={id} name={name} defaultValue={selected}>
        {ROLE_NAMES.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
    </>
  );
}

export interface TeamView {
  members: readonly Member[];
  /** The signed-in member: no remove button on their own row. */
  selfId: string;
  mayManage: boolean;
  nextCursor?: string;
  notice?: string;
  error?: string;
  /** Sandbox only: the link of the invitation just sent, for when mail does not reach the invitee. */
  invitationLink?: string;
  email?: string;
}

export function TeamPage(view: TeamView) {
  return (
    <>
      <Notice message={view.notice} />
      <ErrorSummary message={view.error} />
      {view.invitationLink ? (
        <p>
          Sandbox: the invitation link is <code>{view.invitationLink}</code>
        </p>
      ) : null}
      {view.mayManage ? (
        <>
          <h2>Invite a member</h2>
          <PostForm action="/team/invitations">
            <Field label="Email" name="email" type="email" autoComplete="off" required defaultValue={view.email} />
            <div className="field">
              <label htmlFor="invite-role">Role</label>
              <select id="invite-role" name="role" defaultValue="developer">
                {ROLE_NAMES.map((role) => (
                  <option key={role} value={role}>
                    {role}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit">Send the invitation</button>
          </PostForm>
        </>
      ) : null}
      <h2>Members</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Two-step sign-in</th>
            <th scope="col">Last sign-in</th>
            {view.mayManage ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {view.members.map((member) => {
            const role = roleNameOf(member.role);
            const manageable = view.mayManage && member.status !== MemberStatus.REMOVED;
            return (
              <tr key={member.id}>
                <th scope="row">{member.name || '(not set yet)'}</th>
                <td>{member.email}</td>
                <td>{role ?? 'unknown'}</td>
                <td>{STATUS_TEXT[member.status]}</td>
                <td>{member.totpEnabled ? 'On' : 'Off'}</td>
                <td>
                  <Moment at={member.lastSignInAt ? timestampDate(member.lastSignInAt) : undefined} />
                </td>
                {view.mayManage ? (
                  <td>
                    {manageable ? (
                      <>
                        <PostForm action={`/team/${member.id}/role`} className="inline">
                          <RoleSelect
                            id={`role-${member.id}`}
                            name="role"
                            selected={role}
                            label={`Role of ${member.email}`}
                          />
                          <button type="submit" className="secondary">
                            Change role<span className="visually-hidden">{` of ${member.email}`}</span>
                          </button>
                        </PostForm>{' '}
                        {member.id === view.selfId ? null : (
                          <PostForm action={`/team/${member.id}/remove`} className="inline">
                            <button type="submit" className="danger">
                              Remove<span className="visually-hidden">{` ${member.email}`}</span>
                            </button>
                          </PostForm>
                        )}
                      </>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {view.nextCursor ? (
        <p>
          <a href={`/team?cursor=${encodeURIComponent(view.nextCursor)}`}>More members</a>
        </p>
      ) : null}
    </>
  );
}
