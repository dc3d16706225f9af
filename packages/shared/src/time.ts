/** Timestamps are seconds since epoch, displayed as YYYY-MM-DD HH:mm:ss in local time. */
export function formatTimestamp(seconds: number): string {
  const date = new Date(seconds * 1000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
