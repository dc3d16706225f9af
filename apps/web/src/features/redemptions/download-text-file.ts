/** Saves text as a file through the browser's download (the codes of a new batch). */
export function downloadTextFile(fileName: string, text: string, type = 'text/plain;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Lets the browser download a URL of this origin as a file, the way a link would: the answer streams to disk
 * (the session cookie goes with it), never held in the page. The server's Content-Disposition names the file.
 */
export function downloadFromUrl(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

/** A file name from free text: characters file systems refuse become '_'. */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = Array.from(name, (character) =>
    character < ' ' || '\\/:*?"<>|'.includes(character) ? '_' : character,
  )
    .join('')
    .trim();
  return cleaned === '' ? fallback : cleaned;
}
