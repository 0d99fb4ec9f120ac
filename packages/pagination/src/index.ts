export {
  decodeCursor,
  encodeCursor,
  keysetPage,
  keysetRead,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type Cursor,
  type KeysetRead,
} from './cursor.js';
export {
  cappedCountSql,
  numberedPage,
  numberedPageSql,
  numberedRead,
  MAX_PAGE_NUMBER,
  TOTAL_CAP,
  type NumberedRead,
} from './numbered.js';
