import { abaIsValid, ibanIsValid, ibanOf, nubanCheckDigit } from '../payouts/sandbox-directory.js';

/**
 * The numbers the sandbox rail gives virtual accounts (decision 0014), each valid under its real
 * scheme so a platform's own validation accepts them: NUBAN with its check digit (NGN), IBAN with
 * mod-97 check digits (GBP, EUR), an ABA routing number with its checksum and an account (USD).
 * `serial` comes from a database sequence, so numbers are never reused.
 */

export interface IssuedAccount {
  accountNumber: string;
  bankCode: string;
  bankName: string;
}

const ISSUERS = {
  NGN: { bankCode: '035', bankName: 'Wema Bank' },
  GBP: { bankCode: '040075', bankName: 'ClearBank' },
  EUR: { bankCode: 'SOBKDEB2XXX', bankName: 'Solaris' },
  USD: { bankCode: '026073150', bankName: 'Community Federal Savings Bank' },
} as const;

export type VirtualAccountCurrency = keyof typeof ISSUERS;
export const VIRTUAL_ACCOUNT_CURRENCIES = Object.keys(ISSUERS) as VirtualAccountCurrency[];
export const isVirtualAccountCurrency = (currency: string): currency is VirtualAccountCurrency =>
  Object.hasOwn(ISSUERS, currency);

// Germany's bank code (BLZ) of the EUR issuer.
const EUR_BLZ = '11010100';

export function issueAccountNumber(currency: VirtualAccountCurrency, serial: bigint): IssuedAccount {
  const issuer = ISSUERS[currency];
  const digits = (length: number) => {
    const text = serial.toString();
    if (text.length > length) throw new RangeError(`virtual account serial ${serial} has more than ${length} digits`);
    return text.padStart(length, '0');
  };
  switch (currency) {
    case 'NGN': {
      const core = digits(9);
      return { ...issuer, accountNumber: `${core}${nubanCheckDigit(issuer.bankCode, core)}` };
    }
    case 'GBP':
      // GB IBAN: 4-letter bank identifier, 6-digit sort code, 8-digit account number.
      return { ...issuer, accountNumber: ibanOf('GB', `CLRB${issuer.bankCode}${digits(8)}`) };
    case 'EUR':
      return { ...issuer, accountNumber: ibanOf('DE', `${EUR_BLZ}${digits(10)}`) };
    case 'USD':
      return { ...issuer, accountNumber: `8${digits(11)}` };
  }
}

/** True when an issued number holds under its scheme (the sandbox's own check, and the tests'). */
export function issuedAccountIsValid(currency: VirtualAccountCurrency, account: IssuedAccount): boolean {
  switch (currency) {
    case 'NGN':
      return (
        /^\d{10}$/.test(account.accountNumber) &&
        nubanCheckDigit(account.bankCode, account.accountNumber.slice(0, 9)) === Number(account.accountNumber[9])
      );
    case 'GBP':
    case 'EUR':
      return ibanIsValid(account.accountNumber);
    case 'USD':
      return abaIsValid(account.bankCode) && /^\d{12}$/.test(account.accountNumber);
  }
}
