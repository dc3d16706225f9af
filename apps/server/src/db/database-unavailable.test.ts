import Sqlite from 'libsql';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable';

/** The error SQLite itself raises when it cannot grow the file: its page limit set to the size it has. */
function diskFullError(): unknown {
  const database = new Sqlite(':memory:');
  try {
    database.exec('CREATE TABLE filler (data BLOB)');
    const pages = (database.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    database.exec(`PRAGMA max_page_count = ${pages}`);
    database.prepare('INSERT INTO filler VALUES (zeroblob(100000))').run();
    return null;
  } catch (error) {
    return error;
  } finally {
    database.close();
  }
}

describe('isDatabaseUnavailable', () => {
  it('counts a full disk as the database unavailable (503, try again), not a wrong query', () => {
    const error = diskFullError();
    expect(error).toMatchObject({ code: 'SQLITE_FULL' });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('counts SQLite I/O errors alike, and not other SQLite errors', () => {
    const ioError = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' });
    expect(isDatabaseUnavailable(ioError)).toBe(true);
    const database = new Sqlite(':memory:');
    let syntaxError: unknown = null;
    try {
      database.exec('SELEC 1');
    } catch (error) {
      syntaxError = error;
    } finally {
      database.close();
    }
    expect(syntaxError).toMatchObject({ code: 'SQLITE_ERROR' });
    expect(isDatabaseUnavailable(syntaxError)).toBe(false);
  });
});
