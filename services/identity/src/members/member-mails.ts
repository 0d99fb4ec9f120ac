import type { OutgoingMail } from '../mail/mail-outbox.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function linkMail(to: string, subject: string, lines: string[], link: string, after: string): OutgoingMail {
  const text = [...lines, '', link, '', after].join('\n');
  const html = [
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    `<p>${escapeHtml(after)}</p>`,
  ].join('\n');
  return { to, subject, text, html };
}

const environmentWord = (environment: 'sandbox' | 'production') => (environment === 'sandbox' ? ' (sandbox)' : '');

export function invitationMail(input: {
  to: string;
  businessName: string;
  role: string;
  environment: 'sandbox' | 'production';
  link: string;
  expiresAt: Date;
}): OutgoingMail {
  return linkMail(
    input.to,
    `You are invited to ${input.businessName} on Corridor${environmentWord(input.environment)}`,
    [
      `You are invited to join ${input.businessName} on the Corridor dashboard${environmentWord(input.environment)} as ${input.role}.`,
      'Open this link to choose your name and password:',
    ],
    input.link,
    `The link works once and until ${input.expiresAt.toISOString()}. If you did not expect it, ignore this mail.`,
  );
}

export function passwordResetMail(input: {
  to: string;
  environment: 'sandbox' | 'production';
  link: string;
  expiresAt: Date;
}): OutgoingMail {
  return linkMail(
    input.to,
    `Reset your Corridor${environmentWord(input.environment)} password`,
    ['Someone asked to reset the password of your Corridor dashboard account.', 'Open this link to choose a new one:'],
    input.link,
    `The link works once and until ${input.expiresAt.toISOString()}. If you did not ask, ignore this mail: your password stays as it is.`,
  );
}
