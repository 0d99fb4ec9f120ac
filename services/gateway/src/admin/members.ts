import { z } from '@corridor/config';
import { MemberRoleSchema, MemberStatusSchema, type Member } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { readBody, readQuery } from '../http/input.js';
import { pathParam } from '../http/path-params.js';
import { zodOpenApi } from '../floor/zod-schemas.js';
import { cursorEnvelope, cursorList, listLocationOf } from '../floor/pages/cursor-page.js';
import { queryOf } from '../floor/pages/page-query.js';
import { pageCursor, perPage, wordOf } from '../floor/fields.js';
import { present } from '../public/payments/render.js';
import { protoVocabulary } from '../public/payments/vocabulary.js';
import { NO_SUCH_BUSINESS } from './path-ids.js';
import type { AdminRoute, AdminRouteContext } from '../floor/route-context.js';
import { iso, isoOrNull } from '../floor/times.js';

/**
 * A business's dashboard members (decision 0028), served by identity's MemberService: the back
 * office invites a business's first owner here; the members manage the rest in the dashboard.
 */

export const MEMBER_ROLES = protoVocabulary(MemberRoleSchema, 'lower');
export const MEMBER_STATUSES = protoVocabulary(MemberStatusSchema, 'lower');

const InviteMemberBody = z.strictObject({
  email: z.string({ message: 'is required and must be a string' }).meta({
    format: 'email',
    maxLength: 254,
    description: 'the person’s address; identity lower-cases it and refuses one that is already a member’s',
  }),
  role: wordOf(MEMBER_ROLES, 'what they may do in the dashboard (decision 0028); default owner').default('owner'),
});

const MemberItem = z
  .strictObject({
    id: z.guid(),
    business_id: z.guid(),
    email: z.string().meta({ description: 'lower-cased; unique among the environment’s members not removed' }),
    name: z.string().meta({ description: 'empty until the invitation is accepted' }),
    role: wordOf(MEMBER_ROLES, 'owner, admin, developer or viewer'),
    status: wordOf(MEMBER_STATUSES, 'invited (no password yet), active, or removed'),
    totp_enabled: z.boolean().meta({ description: 'two-factor sign-in is set up' }),
    created_at: z.iso.datetime(),
    last_sign_in_at: z.iso.datetime().nullable().meta({ description: 'null until the first sign-in' }),
  })
  .meta({ description: 'A person of the business who signs in to its dashboard' });

const Invitation = MemberItem.extend({
  invitation_url: z.url().nullable().meta({
    description:
      'sandbox only: the single-use link the invitation mail carries; null in production, where only the mail has it',
  }),
  expires_at: z.iso.datetime().meta({ description: 'the link works until then (72 h)' }),
}).meta({ description: 'The invited member and, in the sandbox, the invitation’s link' });

const MemberList = cursorList(MemberItem, 'members');

const MemberListQuery = z.strictObject({ cursor: pageCursor(), per_page: perPage('members') });

const converted = zodOpenApi({ AdminMember: MemberItem, AdminInvitation: Invitation });
const { jsonSchemaOf, querySchemaOf } = converted;

/** components.schemas of the member routes. */
export const memberSchemaComponents = converted.schemaComponents;

export function memberJson(member: Member) {
  return {
    id: member.id,
    business_id: member.businessId,
    email: member.email,
    name: member.name,
    role: MEMBER_ROLES.toWord(member.role, 'member role'),
    status: MEMBER_STATUSES.toWord(member.status, 'member status'),
    totp_enabled: member.totpEnabled,
    created_at: iso(present(member.createdAt, 'created_at')),
    last_sign_in_at: isoOrNull(member.lastSignInAt),
  };
}

async function inviteMember({ req, res, clients, call, dashboardUrl }: AdminRouteContext): Promise<void> {
  const body = readBody(InviteMemberBody, req.body);
  const answer = await clients.members.inviteMember(
    { businessId: pathParam(req, 'id'), email: body.email, role: MEMBER_ROLES.toProto(body.role) },
    call,
  );
  res
    .status(201)
    .setHeader('Cache-Control', 'no-store')
    .json({
      ...memberJson(present(answer.member, 'member')),
      invitation_url: answer.invitationToken ? `${dashboardUrl}/invitation/${answer.invitationToken}` : null,
      expires_at: iso(present(answer.expiresAt, 'expires_at')),
    });
}

async function listMembers({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const params = queryOf(req.originalUrl);
  const query = readQuery(MemberListQuery, params);
  const { members, page } = await clients.members.listMembers(
    { businessId: pathParam(req, 'id'), page: { cursor: query.cursor ?? '', limit: query.per_page } },
    call,
  );
  res.json(cursorEnvelope(members.map(memberJson), present(page, 'page'), query.per_page, listLocationOf(req, params)));
}

const PATH = '/admin/businesses/{id}/members';

export const MEMBER_ROUTES: readonly AdminRoute[] = [
  {
    method: 'post',
    path: PATH,
    operationId: 'inviteMember',
    summary:
      'Invite a person to the business’s dashboard (its first owner, typically): identity mails a single-use link valid 72 h; inviting an invited member again sends a new link and voids the older one',
    requestBody: jsonSchemaOf(InviteMemberBody, 'input'),
    responses: {
      201: {
        description: 'The invited member, and in the sandbox the invitation’s link',
        schema: jsonSchemaOf(Invitation),
      },
      404: NO_SUCH_BUSINESS,
      409: {
        description:
          'The email is already a member of this business, or of another business of this environment (MEMBER_EXISTS)',
      },
      422: {
        description:
          'email missing or not a string, role not owner, admin, developer or viewer, another field (VALIDATION_FAILED, `errors` names each); or identity refuses the email as no address',
      },
    },
    handle: inviteMember,
  },
  {
    method: 'get',
    path: PATH,
    operationId: 'listMembers',
    summary: 'The business’s dashboard members, removed ones too, newest first, in cursor pages',
    query: querySchemaOf(MemberListQuery),
    responses: {
      200: {
        description: 'A page of members in Laravel’s cursor-paginator envelope',
        schema: jsonSchemaOf(MemberList),
      },
      404: NO_SUCH_BUSINESS,
      422: {
        description:
          'An unknown or repeated parameter, per_page outside 1..100, an empty cursor (VALIDATION_FAILED); a cursor that is not one of this list’s pages',
      },
    },
    handle: listMembers,
  },
];
