import {
  VIRTUAL_ACCOUNT_CURRENCIES,
  isVirtualAccountCurrency,
  issueAccountNumber,
  issuedAccountIsValid,
  type VirtualAccountCurrency,
} from './sandbox-accounts.js';

// The schemes written out again here, independently of the code under test, so a shared mistake
// in sandbox-directory.ts cannot make both sides agree.
const NUBAN_WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];
function nubanHolds(bankCode: string, accountNumber: string): boolean {
  if (!/^\d{3}$/.test(bankCode) || !/^\d{10}$/.test(accountNumber)) return false;
  const digits = `${bankCode}${accountNumber.slice(0, 9)}`.split('').map(Number);
  const sum = digits.reduce((total, digit, index) => total + digit * (NUBAN_WEIGHTS[index] ?? 0), 0);
  return (10 - (sum % 10)) % 10 === Number(accountNumber[9]);
}

function ibanHolds(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const numeric = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (letter) =>
    String(letter.charCodeAt(0) - 55),
  );
  return BigInt(numeric) % 97n === 1n;
}

function abaHolds(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = routing.split('').map(Number);
  const weighted = (i: number, w: number) => (d[i] ?? 0) * w;
  let sum = 0;
  for (let i = 0; i < 9; i += 3) sum += weighted(i, 3) + weighted(i + 1, 7) + weighted(i + 2, 1);
  return sum % 10 === 0;
}

/** Whether an issued number holds under its real scheme, as a platform's own validation would check it. */
function holdsUnderScheme(currency: VirtualAccountCurrency, issued: ReturnType<typeof issueAccountNumber>): boolean {
  switch (currency) {
    case 'NGN':
      return nubanHolds(issued.bankCode, issued.accountNumber);
    case 'GBP':
      return (
        issued.accountNumber.startsWith('GB') && issued.accountNumber.length === 22 && ibanHolds(issued.accountNumber)
      );
    case 'EUR':
      return (
        issued.accountNumber.startsWith('DE') && issued.accountNumber.length === 22 && ibanHolds(issued.accountNumber)
      );
    case 'USD':
      return abaHolds(issued.bankCode) && /^\d{12}$/.test(issued.accountNumber);
  }
}

describe('sandbox virtual account numbers (decision 0014)', () => {
  it('the independent checkers accept published examples and refuse a changed digit', () => {
    // CBN's NUBAN example (bank 011, serial 000001457), and the IBAN registry's GB and DE examples.
    expect(nubanHolds('011', '0000014579')).toBe(true);
    expect(nubanHolds('011', '0000014578')).toBe(false);
    expect(ibanHolds('GB82WEST12345698765432')).toBe(true);
    expect(ibanHolds('DE89370400440532013000')).toBe(true);
    expect(ibanHolds('DE89370400440532013001')).toBe(false);
    expect(abaHolds('021000021')).toBe(true);
    expect(abaHolds('021000022')).toBe(false);
  });

  it.each(VIRTUAL_ACCOUNT_CURRENCIES)(
    '%s numbers are valid under their scheme (NUBAN, IBAN mod-97, ABA)',
    (currency) => {
      for (const serial of [100_000n, 100_001n, 123_456n, 99_999_999n, 0n]) {
        const issued = issueAccountNumber(currency, serial);
        expect(holdsUnderScheme(currency, issued)).toBe(true);
        expect(issuedAccountIsValid(currency, issued)).toBe(true);
      }
    },
  );

  it.each(VIRTUAL_ACCOUNT_CURRENCIES)('distinct serials give distinct %s numbers', (currency) => {
    const numbers = new Set<string>();
    for (let serial = 100_000n; serial < 102_000n; serial++)
      numbers.add(issueAccountNumber(currency, serial).accountNumber);
    expect(numbers.size).toBe(2_000);
  });

  it('the same serial gives the same number every time (numbers come only from the sequence)', () => {
    expect(issueAccountNumber('GBP', 100_123n)).toEqual(issueAccountNumber('GBP', 100_123n));
  });

  it('NGN numbers are NUBANs of the issuing bank: 10 digits, 9-digit serial and its check digit', () => {
    const issued = issueAccountNumber('NGN', 100_042n);
    expect(issued).toEqual({
      bankCode: '035',
      bankName: 'Wema Bank',
      accountNumber: expect.stringMatching(/^000100042\d$/),
    });
  });

  it('a number with one digit changed is refused by the sandbox’s own check', () => {
    for (const currency of VIRTUAL_ACCOUNT_CURRENCIES.filter((c) => c !== 'USD')) {
      const issued = issueAccountNumber(currency, 100_500n);
      const last = Number(issued.accountNumber.at(-1));
      const tampered = { ...issued, accountNumber: `${issued.accountNumber.slice(0, -1)}${(last + 1) % 10}` };
      expect(issuedAccountIsValid(currency, tampered)).toBe(false);
      expect(holdsUnderScheme(currency, tampered)).toBe(false);
    }
  });

  it('a serial wider than the scheme’s account field is refused, never truncated into a reused number', () => {
    expect(() => issueAccountNumber('NGN', 1_000_000_000n)).toThrow(RangeError);
    expect(() => issueAccountNumber('GBP', 100_000_000n)).toThrow(RangeError);
    expect(issueAccountNumber('NGN', 999_999_999n).accountNumber).toMatch(/^999999999\d$/);
  });

  it('only NGN, USD, GBP and EUR have an issuer', () => {
    expect([...VIRTUAL_ACCOUNT_CURRENCIES].sort()).toEqual(['EUR', 'GBP', 'NGN', 'USD']);
    expect(isVirtualAccountCurrency('CAD')).toBe(false);
    expect(isVirtualAccountCurrency('toString')).toBe(false);
  });
});
