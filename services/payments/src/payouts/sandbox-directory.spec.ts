import {
  accountProblem,
  sandboxAccountName,
  sandboxAccountNumber,
  sandboxOutcome,
  SANDBOX_BANKS,
} from './sandbox-directory.js';

describe('the sandbox rail’s bank directory (decision 0013)', () => {
  it('accepts NUBANs with a right CBN check digit and refuses a wrong one', () => {
    const nuban = sandboxAccountNumber('058', '012345678');
    expect(nuban).toMatch(/^\d{10}$/);
    expect(accountProblem('058', nuban)).toBeUndefined();
    const wrong = `${nuban.slice(0, 9)}${(Number(nuban[9]) + 1) % 10}`;
    expect(accountProblem('058', wrong)).toBe('invalid_account_number');
    expect(accountProblem('058', '12345')).toBe('invalid_account_number');
    expect(accountProblem('999', nuban)).toBe('unknown_bank');
  });

  it('accepts IBANs with right mod-97 check digits of the bank’s country, and known valid IBANs', () => {
    const iban = sandboxAccountNumber('DEUTDEFFXXX', '99900001');
    expect(accountProblem('DEUTDEFFXXX', iban)).toBeUndefined();
    expect(accountProblem('DEUTDEFFXXX', 'DE89370400440532013000')).toBeUndefined();
    expect(accountProblem('DEUTDEFFXXX', 'DE89370400440532013001')).toBe('invalid_account_number');
    expect(accountProblem('BNPAFRPPXXX', iban)).toBe('invalid_account_number');
  });

  it('every sandbox bank code is valid for its scheme', () => {
    for (const bank of SANDBOX_BANKS) {
      const account = sandboxAccountNumber(
        bank.code,
        bank.scheme === 'iban' ? '12345678' : bank.scheme === 'nuban' ? '123456789' : '12345678',
      );
      expect(accountProblem(bank.code, account)).toBeUndefined();
    }
  });

  it('magic cores choose the outcome; other accounts succeed; names are stable', () => {
    expect(sandboxOutcome('058', sandboxAccountNumber('058', '999000001'))).toBe('invalid_account');
    expect(sandboxOutcome('200000', '99900004')).toBe('reversed');
    expect(sandboxOutcome('DEUTDEFFXXX', sandboxAccountNumber('DEUTDEFFXXX', '99900009'))).toBe('not_found');
    expect(sandboxOutcome('058', sandboxAccountNumber('058', '012345678'))).toBe('successful');
    expect(sandboxAccountName('058', '0123456789')).toBe(sandboxAccountName('058', '0123456789'));
  });
});
