import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { createLogger } from '@corridor/logging';
import { integrationDatabase, MailReceiver, query } from '@corridor/testing';
import { createBusiness } from '../businesses/create-business.js';
import { identityDatabase } from '../database.js';
import { inviteMember } from '../members/invite-member.js';
import type { MembersContext } from '../members/members-context.js';
import { IdentitySecrets } from '../secrets/identity-secrets.js';
import { MailRelay, retryDelayMs } from './mail-relay.js';

describe('identity: the mail relay (real PostgreSQL, real SMTP)', () => {
  const database = integrationDatabase('identity', identityDatabase);
  let receiver: MailReceiver;
  let now = new Date('2026-11-28T12:00:00.000Z');
  const context: MembersContext = {
    environment: 'sandbox',
    topic: 'test.corridor.identity.v1',
    now: () => new Date(now.getTime()),
    secrets: new IdentitySecrets('r'.repeat(64)),
    dashboardUrl: 'http://127.0.0.1:8090',
  };
  const logger = createLogger('identity-mail-relay-spec', { level: 'silent' });
  const relayOf = (smtpUrl: string) =>
    new MailRelay({ smtpUrl, from: 'Corridor <no-reply@corridor.test>', now: context.now, logger });

  beforeAll(async () => {
    receiver = await MailReceiver.start();
  });

  afterAll(async () => {
    await receiver.stop();
  });

  it('delivers the invitation mail with its link, once, even with two relays at once', async () => {
    const business = await createBusiness(database.em(), context, { name: 'Mail Co' });
    const invitation = await inviteMember(database.em(), context, {
      businessId: business.id,
      email: 'Owner@Mail.example',
      role: MemberRole.OWNER,
    });
    const relays = [relayOf(receiver.smtpUrl), relayOf(receiver.smtpUrl)];
    const sent = await Promise.all(relays.map((relay) => relay.sendDue(database.em())));
    for (const relay of relays) relay.close();
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);

    const [mail] = await receiver.waitFor((m) => m.envelopeTo.includes('owner@mail.example'));
    expect(mail?.subject).toBe('You are invited to Mail Co on Corridor (sandbox)');
    expect(mail?.from).toContain('no-reply@corridor.test');
    expect(mail?.text).toContain(`http://127.0.0.1:8090/invitation/${invitation.invitationToken}`);
    expect(mail?.html).toContain(`href="http://127.0.0.1:8090/invitation/${invitation.invitationToken}"`);
    expect(receiver.mails.filter((m) => m.envelopeTo.includes('owner@mail.example'))).toHaveLength(1);
    const [row] = await query<{ sent_at: Date | null; attempts: number }>(
      database.url,
      `select sent_at, attempts from mail where recipient = 'owner@mail.example'`,
    );
    expect(row).toMatchObject({ sent_at: now, attempts: 1 });
  });

  it('a refused mail is retried later with backoff and its error recorded', async () => {
    const business = await createBusiness(database.em(), context, { name: 'Retry Co' });
    await inviteMember(database.em(), context, {
      businessId: business.id,
      email: 'retry@mail.example',
      role: MemberRole.OWNER,
    });
    receiver.refuseNext(1, 'mailbox busy');
    const relay = relayOf(receiver.smtpUrl);
    try {
      expect(await relay.sendDue(database.em())).toBe(0);
      const [failed] = await query<{ last_error: string; attempts: number; next_attempt_at: Date }>(
        database.url,
        `select last_error, attempts, next_attempt_at from mail where recipient = 'retry@mail.example'`,
      );
      expect(failed?.last_error).toContain('mailbox busy');
      expect(failed?.attempts).toBe(1);
      expect(failed?.next_attempt_at).toEqual(new Date(now.getTime() + retryDelayMs(1)));

      // Not due yet: nothing is sent.
      expect(await relay.sendDue(database.em())).toBe(0);
      now = new Date(now.getTime() + retryDelayMs(1));
      expect(await relay.sendDue(database.em())).toBe(1);
      await receiver.waitFor((m) => m.envelopeTo.includes('retry@mail.example'));
      const [sent] = await query<{ last_error: string | null; attempts: number }>(
        database.url,
        `select last_error, attempts from mail where recipient = 'retry@mail.example'`,
      );
      expect(sent).toEqual({ last_error: null, attempts: 2 });
    } finally {
      relay.close();
    }
  });

  it('an unreachable server leaves the mail queued with the error', async () => {
    const business = await createBusiness(database.em(), context, { name: 'Down Co' });
    await inviteMember(database.em(), context, {
      businessId: business.id,
      email: 'down@mail.example',
      role: MemberRole.OWNER,
    });
    const relay = relayOf('smtp://127.0.0.1:1');
    try {
      expect(await relay.sendDue(database.em())).toBe(0);
    } finally {
      relay.close();
    }
    const [row] = await query<{ sent_at: Date | null; last_error: string }>(
      database.url,
      `select sent_at, last_error from mail where recipient = 'down@mail.example'`,
    );
    expect(row?.sent_at).toBeNull();
    expect(row?.last_error).toMatch(/ECONNREFUSED|connect/i);
  });
});
