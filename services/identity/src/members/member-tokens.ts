import { createHash, randomBytes } from 'node:crypto';
import { sql } from '@corridor/db';
import type { EntityManager } from '@mikro-orm/core';
import { MemberToken, type MemberTokenKind } from './member.entity.js';

/** A link's token: 256 random bits, base64url; only its SHA-256 is stored. */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

export const tokenHash = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** Tokens are only ever 43 base64url characters: anything else is refused without a query. */
export const couldBeLinkToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * A new link of `kind` for the member, voiding the member's older open ones of that kind (a new
 * invitation or reset replaces the last): flushed here, so the void and the insert are ordered.
 */
export async function issueLinkToken(
  tx: EntityManager,
  memberId: string,
  kind: MemberTokenKind,
  now: Date,
  lifetimeMs: number,
): Promise<{ token: string; expiresAt: Date }> {
  await sql(tx, `update member_token set used_at = ? where member_id = ? and kind = ? and used_at is null`, [
    now,
    memberId,
    kind,
  ]);
  const token = newLinkToken();
  const expiresAt = new Date(now.getTime() + lifetimeMs);
  tx.create(MemberToken, { tokenHash: tokenHash(token), memberId, kind, createdAt: now, expiresAt, usedAt: null });
  await tx.flush();
  return { token, expiresAt };
}

/**
 * Uses a link up in one conditional UPDATE: of two requests with one token, exactly one gets the
 * member id; used, expired, voided and unknown tokens get undefined alike.
 */
export async function useLinkToken(
  tx: EntityManager,
  token: string,
  kind: MemberTokenKind,
  now: Date,
): Promise<string | undefined> {
  if (!couldBeLinkToken(token)) return undefined;
  const [used] = await sql<{ member_id: string }>(
    tx,
    `update member_token set used_at = ?
      where token_hash = ? and kind = ? and used_at is null and expires_at > ?
      returning member_id`,
    [now, tokenHash(token), kind, now],
  );
  return used?.member_id;
}

/** The member of an open link, without using it (the page that shows the invitation). */
export async function openLinkMember(
  em: EntityManager,
  token: string,
  kind: MemberTokenKind,
  now: Date,
): Promise<string | undefined> {
  if (!couldBeLinkToken(token)) return undefined;
  const [open] = await sql<{ member_id: string }>(
    em,
    `select member_id from member_token where token_hash = ? and kind = ? and used_at is null and expires_at > ?`,
    [tokenHash(token), kind, now],
  );
  return open?.member_id;
}
