import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const MEMBER_ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type MemberRoleName = (typeof MEMBER_ROLES)[number];
export const MEMBER_STATUSES = ['invited', 'active', 'removed'] as const;
export type MemberStatusName = (typeof MEMBER_STATUSES)[number];

/**
 * A person of a platform business who signs in to the dashboard (decision 0028). The password is
 * an argon2id hash; the TOTP secrets are sealed with identity's key and never leave identity.
 */
export const Member = defineEntity({
  name: 'Member',
  tableName: 'member',
  properties: {
    id: p.uuid().primary(),
    businessId: p.uuid(),
    email: p.text(),
    name: p.text(),
    role: p.text().$type<MemberRoleName>(),
    status: p.text().$type<MemberStatusName>(),
    passwordHash: p.text().nullable(),
    totpSecret: p.blob().nullable(),
    totpPendingSecret: p.blob().nullable(),
    totpEnabled: p.boolean(),
    /** The time step (unix seconds / 30) of the last code accepted for `totpSecret`: never accepted again. */
    totpLastStep: p.bigint('number').nullable(),
    failedSignIns: p.integer(),
    lockedUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
    lastSignInAt: p.datetime().nullable(),
  },
});
export type Member = InferEntity<typeof Member>;

export type MemberTokenKind = 'invitation' | 'password_reset';

/** A single-use link's token, kept only as its SHA-256 (the link itself is 256 random bits). */
export const MemberToken = defineEntity({
  name: 'MemberToken',
  tableName: 'member_token',
  properties: {
    tokenHash: p.blob().primary(),
    memberId: p.uuid(),
    kind: p.text().$type<MemberTokenKind>(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export type MemberToken = InferEntity<typeof MemberToken>;
