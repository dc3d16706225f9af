import { describe, expect, it } from 'vitest';
import { callsTo, jsonResponse, mockApi } from '../../test/mock-api';
import { listLogs, type LogCursors } from './logs-queries';

describe('listLogs', () => {
  it("reads the next page after the previous page's cursor, by offset only when it has none", async () => {
    const fetchMock = mockApi({
      'GET /api/log/self/': ({ url }) =>
        jsonResponse({
          success: true,
          message: '',
          data: [{ id: 1 }],
          next_cursor: url.searchParams.get('cursor') ? null : 'page-two-cursor',
        }),
    });
    const cursors: LogCursors = new Map();
    const params = { model_name: 'gpt-4o' };
    await listLogs(false, params, 0, cursors);
    await listLogs(false, params, 1, cursors);
    // Another filter has no cursor for its second page yet: it asks by offset.
    await listLogs(false, { model_name: 'o3' }, 1, cursors);
    const urls = callsTo(fetchMock, 'GET /api/log/self/').map((call) => call.url.searchParams);
    expect(urls[0].get('p')).toBe('0');
    expect(urls[1].get('cursor')).toBe('page-two-cursor');
    expect(urls[1].get('p')).toBeNull();
    expect(urls[1].get('model_name')).toBe('gpt-4o');
    expect(urls[2].get('cursor')).toBeNull();
    expect(urls[2].get('p')).toBe('1');
  });

  it('fails on a refused page', async () => {
    mockApi({ 'GET /api/log/': { success: false, message: 'cursor is not one this list gave' } });
    await expect(listLogs(true, {}, 0, new Map())).rejects.toThrow(/cursor/);
  });
});
