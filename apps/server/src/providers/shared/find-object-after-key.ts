const WHITESPACE = /\s/;

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The object that follows the last `"<key>":` of a JSON text, parsed on its own so the rest of the text
 * (megabytes of embeddings, inline images) never is. Vendors put usage last, hence the search from the end.
 * An escaped key inside a string (\"usage\") does not match; undefined when the key is absent, is not
 * followed by an object, or the object is cut or malformed.
 */
export function findObjectAfterKey(text: string, key: string): unknown {
  const quotedKey = `"${key}"`;
  const at = text.lastIndexOf(quotedKey);
  if (at < 0) return undefined;
  let start = at + quotedKey.length;
  while (WHITESPACE.test(text[start] ?? '')) start += 1;
  if (text[start] !== ':') return undefined;
  start += 1;
  while (WHITESPACE.test(text[start] ?? '')) start += 1;
  if (text[start] !== '{') return undefined;
  let depth = 0;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (character === '"') {
      for (index += 1; index < text.length && text[index] !== '"'; index += 1)
        if (text[index] === '\\') index += 1;
    } else if (character === '{') depth += 1;
    else if (character === '}') {
      depth -= 1;
      if (depth === 0) return parseObject(text.slice(start, index + 1));
    }
  }
  return undefined;
}
