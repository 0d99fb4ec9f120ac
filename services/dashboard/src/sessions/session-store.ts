import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { RedisClientType } from 'redis';
import type { RoleName } from '../members/roles.js';

/**
 * Members' sessions, server-side in Redis. The browser holds only a random 256-bit id; Redis keys
 * hold its SHA-256, so a copy of Redis names no session a browser could present. Every sign-in
 * starts a new session id (no fixation), and a member's session ids are kept in a set so that "sign
 * out everywhere", removal and a new password end them all.
 */

/**
 * `totp`: the password was right and a TOTP code is pending; `enrol_totp`: signed in but must
 * enrol TOTP before anything else (production owners and admins); `signed_in`.
 */
export type SessionStage = 'totp' | 'enrol_totp' | 'signed_in';

export interface SessionMember {
  memberId: string;
  businessId: string;
  role: RoleName;
  email: string;
  name: string;
}

export interface Session extends SessionMember {
  /** The cookie's value; never stored. */
  id: string;
  stage: SessionStage;
  /** Epoch milliseconds. */
  createdAt: number;
  lastSeenAt: number;
  csrfToken: string;
}

interface StoredSession extends Omit<Session, 'id'> {
  /** Only while stage is `totp`: the password, encrypted under a key derived from the session id. */
  pendingPassword?: string;
}

export interface SessionSettings {
  idleSeconds: number;
  absoluteSeconds: number;
  /** How long the TOTP step may wait after the password; short, it holds the password. */
  pendingSeconds?: number;
}

/** Milliseconds since the epoch; tests pass their own. */
export type Clock = () => number;

const DEFAULT_PENDING_SECONDS = 5 * 60;

const hashOf = (id: string) => createHash('sha256').update(id).digest('base64url');
const randomToken = () => randomBytes(32).toString('base64url');

/** The pending password's key: from the id only the browser holds, so Redis alone cannot read it. */
const pendingKey = (id: string) => Buffer.from(hkdfSync('sha256', id, 'corridor-dashboard', 'pending-password', 32));

function seal(id: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', pendingKey(id), iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

function open(id: string, sealed: string): string {
  const bytes = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', pendingKey(id), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

export class SessionStore {
  private readonly pendingSeconds: number;

  constructor(
    private readonly redis: RedisClientType,
    private readonly keyPrefix: string,
    private readonly environment: string,
    private readonly settings: SessionSettings,
    private readonly clock: Clock = Date.now,
  ) {
    this.pendingSeconds = settings.pendingSeconds ?? DEFAULT_PENDING_SECONDS;
  }

  private sessionKey(hash: string): string {
    return `${this.keyPrefix}:dashboard:${this.environment}:session:${hash}`;
  }

  private memberKey(memberId: string): string {
    return `${this.keyPrefix}:dashboard:${this.environment}:member-sessions:${memberId}`;
  }

  /** How long a session may still live: its idle window, cut by its absolute end. */
  private remainingMs(session: StoredSession, now: number): number {
    const idle = (session.stage === 'totp' ? this.pendingSeconds : this.settings.idleSeconds) * 1000;
    const absolute = (session.stage === 'totp' ? this.pendingSeconds : this.settings.absoluteSeconds) * 1000;
    return Math.min(session.lastSeenAt + idle, session.createdAt + absolute) - now;
  }

  private async write(hash: string, session: StoredSession, ttlMs: number): Promise<void> {
    await this.redis.set(this.sessionKey(hash), JSON.stringify(session), {
      expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) },
    });
  }

  /**
   * A new session with a new id. `replacing` is the id the browser presented, ended here: an id
   * from before a sign-in is never the one after it.
   */
  async start(
    member: SessionMember,
    stage: SessionStage,
    options: { replacing?: string; password?: string } = {},
  ): Promise<Session> {
    if (options.replacing) await this.end(options.replacing);
    const id = randomToken();
    const now = this.clock();
    const { memberId, businessId, role, email, name } = member;
    const stored: StoredSession = {
      memberId,
      businessId,
      role,
      email,
      name,
      stage,
      createdAt: now,
      lastSeenAt: now,
      csrfToken: randomToken(),
      ...(stage === 'totp' && options.password !== undefined ? { pendingPassword: seal(id, options.password) } : {}),
    };
    const hash = hashOf(id);
    await this.write(hash, stored, this.remainingMs(stored, now));
    const members = this.memberKey(member.memberId);
    await this.redis.sAdd(members, hash);
    await this.redis.expire(members, this.settings.absoluteSeconds);
    const { pendingPassword: _sealed, ...session } = stored;
    return { id, ...session };
  }

  /** The live session of an id, its idle window slid forward; undefined once idle or too old. */
  async read(id: string): Promise<Session | undefined> {
    const hash = hashOf(id);
    const raw = await this.redis.get(this.sessionKey(hash));
    if (raw === null) return undefined;
    const stored = JSON.parse(raw) as StoredSession;
    const now = this.clock();
    if (this.remainingMs(stored, now) <= 0) {
      await this.end(id);
      return undefined;
    }
    const touched: StoredSession = { ...stored, lastSeenAt: now };
    await this.write(hash, touched, this.remainingMs(touched, now));
    const { pendingPassword: _sealed, ...session } = touched;
    return { id, ...session };
  }

  /** The password a session in the `totp` stage holds for the second sign-in call. */
  async pendingPassword(session: Session): Promise<string | undefined> {
    const raw = await this.redis.get(this.sessionKey(hashOf(session.id)));
    if (raw === null) return undefined;
    const { pendingPassword } = JSON.parse(raw) as StoredSession;
    if (pendingPassword === undefined) return undefined;
    try {
      return open(session.id, pendingPassword);
    } catch {
      return undefined;
    }
  }

  async end(id: string): Promise<void> {
    const hash = hashOf(id);
    const raw = await this.redis.get(this.sessionKey(hash));
    await this.redis.del(this.sessionKey(hash));
    if (raw !== null) await this.redis.sRem(this.memberKey((JSON.parse(raw) as StoredSession).memberId), hash);
  }

  /** Sign out everywhere: every session of the member, on every browser. */
  async endEverywhere(memberId: string): Promise<void> {
    const members = this.memberKey(memberId);
    const hashes = await this.redis.sMembers(members);
    if (hashes.length > 0) await this.redis.del(hashes.map((hash) => this.sessionKey(hash)));
    await this.redis.del(members);
  }

  /** A member's new role applies to their open sessions from their next request. */
  async changeRole(memberId: string, role: RoleName): Promise<void> {
    for (const hash of await this.redis.sMembers(this.memberKey(memberId))) {
      const key = this.sessionKey(hash);
      const raw = await this.redis.get(key);
      if (raw === null) continue;
      await this.redis.set(key, JSON.stringify({ ...(JSON.parse(raw) as StoredSession), role }), { KEEPTTL: true });
    }
  }
}
