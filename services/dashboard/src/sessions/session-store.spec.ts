import { randomBytes } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { REDIS_URL } from '../../test/testing/dashboard-harness.js';
import { SessionStore, type SessionMember } from './session-store.js';

const MINUTE = 60_000;
const member: SessionMember = {
  memberId: '00000000-0000-4000-8000-000000000001',
  businessId: '4b8f3c2e-0000-4000-8000-00000000b001',
  role: 'owner',
  email: 'owner@example.com',
  name: 'Owner',
};

describe('SessionStore (real Redis, injected clock)', () => {
  let redis: RedisClientType;
  let now = Date.UTC(2026, 10, 21, 9);
  const prefix = `dashtest-${randomBytes(6).toString('hex')}`;
  let sessions: SessionStore;

  beforeAll(async () => {
    redis = createClient({ url: REDIS_URL }) as RedisClientType;
    await redis.connect();
    sessions = new SessionStore(
      redis,
      prefix,
      'sandbox',
      { idleSeconds: 30 * 60, absoluteSeconds: 12 * 3600 },
      () => now,
    );
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(keys);
    await redis.quit();
  });

  it('ends a session after 30 idle minutes, and each request slides the window', async () => {
    const { id } = await sessions.start(member, 'signed_in');
    now += 29 * MINUTE;
    expect((await sessions.read(id))?.memberId).toBe(member.memberId);
    now += 29 * MINUTE; // 58 minutes after sign-in, 29 after the last request
    expect(await sessions.read(id)).toBeDefined();
    now += 30 * MINUTE;
    expect(await sessions.read(id)).toBeUndefined();
    // Gone from Redis too, not only refused.
    now -= 30 * MINUTE;
    expect(await sessions.read(id)).toBeUndefined();
  });

  it('ends a session 12 hours after sign-in however active it is', async () => {
    const { id } = await sessions.start(member, 'signed_in');
    for (let hour = 0; hour < 11; hour += 1) {
      now += 20 * MINUTE;
      expect(await sessions.read(id)).toBeDefined();
      now += 20 * MINUTE;
      expect(await sessions.read(id)).toBeDefined();
      now += 20 * MINUTE;
      expect(await sessions.read(id)).toBeDefined();
    }
    for (const step of [20, 20, 19]) {
      now += step * MINUTE;
      expect(await sessions.read(id)).toBeDefined(); // 11 h 59 min after sign-in at last
    }
    now += 2 * MINUTE;
    expect(await sessions.read(id)).toBeUndefined();
  });

  it('gives a new id at sign-in and ends the one presented before', async () => {
    const pending = await sessions.start(member, 'totp', { password: 'secret words' });
    const signedIn = await sessions.start(member, 'signed_in', { replacing: pending.id });
    expect(signedIn.id).not.toBe(pending.id);
    expect(signedIn.csrfToken).not.toBe(pending.csrfToken);
    expect(await sessions.read(pending.id)).toBeUndefined();
    expect((await sessions.read(signedIn.id))?.stage).toBe('signed_in');
  });

  it('keeps the pending password readable only with the session id, and for 5 minutes only', async () => {
    const pending = await sessions.start(member, 'totp', { password: 'secret words' });
    expect(await sessions.pendingPassword(pending)).toBe('secret words');
    const stored = (await redis.keys(`${prefix}:dashboard:sandbox:session:*`)).map((key) => redis.get(key));
    for (const value of await Promise.all(stored)) expect(value).not.toContain('secret words');
    now += 6 * MINUTE;
    expect(await sessions.read(pending.id)).toBeUndefined();
  });

  it('signs a member out everywhere, leaving other members signed in', async () => {
    const first = await sessions.start(member, 'signed_in');
    const second = await sessions.start(member, 'signed_in');
    const other = await sessions.start({ ...member, memberId: '00000000-0000-4000-8000-000000000002' }, 'signed_in');
    await sessions.endEverywhere(member.memberId);
    expect(await sessions.read(first.id)).toBeUndefined();
    expect(await sessions.read(second.id)).toBeUndefined();
    expect(await sessions.read(other.id)).toBeDefined();
  });

  it('applies a new role to the member’s open sessions', async () => {
    const session = await sessions.start(member, 'signed_in');
    await sessions.changeRole(member.memberId, 'viewer');
    expect((await sessions.read(session.id))?.role).toBe('viewer');
  });

  it('stores no session id in Redis, only its hash', async () => {
    const { id } = await sessions.start(member, 'signed_in');
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.some((key) => key.includes(id))).toBe(false);
  });
});
