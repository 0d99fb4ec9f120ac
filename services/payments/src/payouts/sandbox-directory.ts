import { createHash } from 'node:crypto';

/**
 * The sandbox rail's bank directory and account numbering (decision 0013): real-looking banks of
 * each scheme, check digits verified as the real schemes do, and account holders' names derived from
 * the number, so a lookup answers the same name every time.
 */

export type SchemeName = 'nuban' | 'sort_code' | 'iban' | 'aba';

export interface SandboxBank {
  code: string;
  name: string;
  country: string;
  currency: string;
  scheme: SchemeName;
}

export const SANDBOX_BANKS: readonly SandboxBank[] = [
  { code: '044', name: 'Access Bank', country: 'NG', currency: 'NGN', scheme: 'nuban' },
  { code: '057', name: 'Zenith Bank', country: 'NG', currency: 'NGN', scheme: 'nuban' },
  { code: '058', name: 'Guaranty Trust Bank', country: 'NG', currency: 'NGN', scheme: 'nuban' },
  { code: '040004', name: 'Monzo Bank', country: 'GB', currency: 'GBP', scheme: 'sort_code' },
  { code: '200000', name: 'Barclays Bank', country: 'GB', currency: 'GBP', scheme: 'sort_code' },
  { code: 'BNPAFRPPXXX', name: 'BNP Paribas', country: 'FR', currency: 'EUR', scheme: 'iban' },
  { code: 'DEUTDEFFXXX', name: 'Deutsche Bank', country: 'DE', currency: 'EUR', scheme: 'iban' },
  { code: '021000021', name: 'JPMorgan Chase Bank', country: 'US', currency: 'USD', scheme: 'aba' },
  { code: '026009593', name: 'Bank of America', country: 'US', currency: 'USD', scheme: 'aba' },
];

export const sandboxBank = (code: string) => SANDBOX_BANKS.find((bank) => bank.code === code);

// CBN's NUBAN: weights over the 3-digit bank code and the 9-digit serial.
const NUBAN_WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

export function nubanCheckDigit(bankCode: string, serial: string): number {
  const digits = `${bankCode}${serial}`.split('').map(Number);
  const sum = digits.reduce((total, digit, index) => total + digit * (NUBAN_WEIGHTS[index] ?? 0), 0);
  return (10 - (sum % 10)) % 10;
}

/** ISO 13616 mod-97 over the rearranged IBAN, letters as 10..35. */
function ibanRemainder(iban: string): number {
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`;
  let remainder = 0;
  for (const char of rearranged) {
    const value = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** The IBAN of a country's BBAN (digits and capital letters), its two check digits computed. */
export function ibanOf(country: string, bban: string): string {
  const check = 98 - ibanRemainder(`${country}00${bban}`);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

export const ibanIsValid = (iban: string) => /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) && ibanRemainder(iban) === 1;

/** ABA routing numbers: 3·d1 + 7·d2 + d3 + … ≡ 0 (mod 10). */
export function abaIsValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return routing.split('').reduce((sum, digit, index) => sum + Number(digit) * (weights[index] ?? 0), 0) % 10 === 0;
}

export type AccountProblem = 'unknown_bank' | 'invalid_account_number';

/** Why an account number cannot exist at this bank, or undefined when its format and check digits hold. */
export function accountProblem(bankCode: string, accountNumber: string): AccountProblem | undefined {
  const bank = sandboxBank(bankCode);
  if (!bank) return 'unknown_bank';
  switch (bank.scheme) {
    case 'nuban':
      return /^\d{10}$/.test(accountNumber) &&
        nubanCheckDigit(bank.code, accountNumber.slice(0, 9)) === Number(accountNumber[9])
        ? undefined
        : 'invalid_account_number';
    case 'sort_code':
      return /^\d{8}$/.test(accountNumber) ? undefined : 'invalid_account_number';
    case 'iban':
      return ibanIsValid(accountNumber) && accountNumber.startsWith(bank.country)
        ? undefined
        : 'invalid_account_number';
    case 'aba':
      return abaIsValid(bank.code) && /^\d{4,17}$/.test(accountNumber) ? undefined : 'invalid_account_number';
  }
}

/** The part of an account number the sandbox's magic outcomes read (decision 0013). */
export function accountCore(bankCode: string, accountNumber: string): string {
  const scheme = sandboxBank(bankCode)?.scheme;
  if (scheme === 'nuban') return accountNumber.slice(0, 9);
  if (scheme === 'iban') return accountNumber.slice(-8);
  return accountNumber;
}

export type SandboxOutcome =
  'successful' | 'invalid_account' | 'bank_unavailable' | 'delayed' | 'reversed' | 'account_closed' | 'not_found';

const MAGIC: Record<string, SandboxOutcome> = {
  '1': 'invalid_account',
  '2': 'bank_unavailable',
  '3': 'delayed',
  '4': 'reversed',
  '5': 'account_closed',
  '9': 'not_found',
};

/** The outcome the sandbox rail gives an account: a core 9990…0N is magic by N, anything else succeeds. */
export function sandboxOutcome(bankCode: string, accountNumber: string): SandboxOutcome {
  const match = /^9990+(\d)$/.exec(accountCore(bankCode, accountNumber));
  return (match && MAGIC[match[1] ?? '']) || 'successful';
}

/** A valid account number of this bank with this core (check digits computed), for tests and docs. */
export function sandboxAccountNumber(bankCode: string, core: string): string {
  const bank = sandboxBank(bankCode);
  if (!bank) throw new Error(`no sandbox bank ${bankCode}`);
  switch (bank.scheme) {
    case 'nuban':
      return `${core}${nubanCheckDigit(bank.code, core)}`;
    case 'iban': {
      const bban = `${bank.code.slice(0, 4)}${'0'.repeat(10)}${core}`.replace(/[A-Z]/g, (c) =>
        String((c.charCodeAt(0) - 55) % 10),
      );
      return ibanOf(bank.country, bban);
    }
    default:
      return core;
  }
}

const FIRST = ['Adaeze', 'Tunde', 'Amelia', 'Oliver', 'Camille', 'Lukas', 'Grace', 'Daniel', 'Ifeoma', 'Sofia'];
const LAST = ['Okafor', 'Adeyemi', 'Smith', 'Jones', 'Martin', 'Schmidt', 'Johnson', 'Brown', 'Eze', 'Rossi'];

/** The account holder's name the sandbox answers for an account (always the same for one account). */
export function sandboxAccountName(bankCode: string, accountNumber: string): string {
  const hash = createHash('sha256').update(`${bankCode}:${accountNumber}`).digest();
  return `${FIRST[(hash[0] ?? 0) % FIRST.length]} ${LAST[(hash[1] ?? 0) % LAST.length]}`;
}
