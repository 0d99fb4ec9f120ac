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
