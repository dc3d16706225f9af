/** The parts of a channel key that joins several credentials with "|" (`AppId|SecretId|SecretKey`), trimmed. */
export function splitPipeSeparatedKey(key: string): string[] {
  return key
    .trim()
    .split('|')
    .map((part) => part.trim());
}

/**
 * What is wrong with the parts of a "|"-separated key, without echoing them: a count other than the ones
 * allowed, an empty part or a part with spaces inside; null when nothing is.
 */
export function pipeSeparatedKeyProblem(key: string, allowedCounts: readonly number[]): string | null {
  const parts = key.trim().split('|');
  if (!allowedCounts.includes(parts.length)) {
    return `it has ${parts.length} part${parts.length === 1 ? '' : 's'} separated by "|"`;
  }
  if (parts.some((part) => part.trim() === '')) return 'a part is empty';
  if (parts.some((part) => /\s/.test(part.trim()))) return 'a part contains spaces';
  return null;
}
