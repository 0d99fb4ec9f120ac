import { Status } from '@corridor/grpc';
import { checkPasswordRule, hashPassword, passwordMatches } from './passwords.js';

describe('member passwords', () => {
  it.each([
    ['too short', 'Short1!'],
    ['too long', `${'aB1'.repeat(43)}`],
    ['only lowercase letters', 'onlylowercaseletters'],
    ['only digits', '123456789012'],
    ['only symbols', '!!!!!!!!!!!!!!'],
  ])('refuses a password %s, stating the whole rule', (_case, password) => {
    expect(() => checkPasswordRule(password)).toThrow(
      expect.objectContaining({
        status: Status.INVALID_ARGUMENT,
        reason: 'WEAK_PASSWORD',
        message: expect.stringContaining('12 to 128 characters and not only one kind of character'),
      }),
    );
  });

  it.each(['correct horse battery', 'Twelve chars', `${'aB'.repeat(64)}`, 'pässwörd ünïcode'])(
    'takes %s',
    (password) => {
      expect(() => checkPasswordRule(password)).not.toThrow();
    },
  );

  it('hashes with argon2id at 19 MiB, 2 passes, 1 lane, and verifies', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await expect(passwordMatches(hash, 'correct horse battery')).resolves.toBe(true);
    await expect(passwordMatches(hash, 'wrong horse battery')).resolves.toBe(false);
    await expect(passwordMatches(null, 'correct horse battery')).resolves.toBe(false);
    await expect(passwordMatches('not a hash', 'anything')).resolves.toBe(false);
  });
});
