export { LedgerAccounts, walletAccount, shardOf, type AccountSpec, type SystemAccountKind } from './accounts.js';
export {
  applyTransfers,
  LedgerError,
  type LedgerErrorKind,
  type LedgerInstruction,
  type NewTransfer,
  type PendingResolution,
  type TransferOutcome,
} from './transfers.js';
export { walletBalances, type WalletBalance } from './balances.js';
export { checkLedger, type LedgerCheck, type LedgerViolation, type LedgerRule } from './invariants.js';
export { sql, int8, dateOf, type Row } from './sql.js';
export { eachInItsOwnTransaction } from './each-in-its-own-transaction.js';
