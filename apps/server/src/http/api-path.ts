/** Whether a request URL (path and query) is on the management API, /api/*. */
export function isManagementApiUrl(url: string): boolean {
  const path = url.split('?')[0] ?? '/';
  return path === '/api' || path.startsWith('/api/');
}
