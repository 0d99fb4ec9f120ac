import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';
import { invalidArgument } from '@corridor/grpc';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

const ARGON2ID: Algorithm = 2;

/**
 * argon2id at OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): written out so a
 * change of the library's defaults never silently weakens new hashes (decision 0028).
 */
export const ARGON2_OPTIONS: Options = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
};

const PASSWORD_RULE = `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters and not only one kind of character (only digits, only lowercase letters, …)`;

const CLASSES = [/^\p{Ll}+$/u, /^\p{Lu}+$/u, /^\p{Nd}+$/u, /^[^\p{L}\p{Nd}]+$/u];

/** The password rule, stated whole in the error so the page can show it as it is. */
export function checkPasswordRule(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH || CLASSES.some((c) => c.test(password))) {
    throw invalidArgument(`password ${PASSWORD_RULE}`, { password: [PASSWORD_RULE] }, 'WEAK_PASSWORD');
  }
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** A hash of a password nobody has, verified when there is no member: unknown emails cost the same time. */
let decoyHash: Promise<string> | undefined;

/** Whether `password` matches `storedHash`; with no hash, a decoy is verified so the time is alike. */
export async function passwordMatches(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    decoyHash ??= hashPassword('decoy password that matches nothing');
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
