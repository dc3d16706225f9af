/**
 * Counts tokens of a tiktoken byte-pair encoding (cl100k_base, o200k_base) from its rank file, in a few MB.
 *
 * gpt-tokenizer ships each encoding twice: as a JavaScript module (a 200 k-entry array that becomes a string
 * Map, +72 MB of resident memory for o200k when loaded) and as the plain `.tiktoken` rank file (one line per
 * token: its bytes in base64, a space, its rank). This reads the rank file into typed arrays — the tokens'
 * bytes end to end, and an open-addressing hash table from bytes to rank — and counts with the same rules:
 * the encoding's split pattern cuts the text into pieces; a piece that is a token counts one; any other is
 * merged from its UTF-8 bytes, always joining the adjacent pair whose join has the lowest rank (the leftmost
 * on a tie), until no join is a token. Special tokens (`<|endoftext|>` …) are text like any other here: a
 * client's text that happens to contain one is counted, never refused.
 *
 * Self-contained on purpose (no imports, no names from outside the function): the tokenizer thread gets its
 * code from `createBytePairCounter.toString()`.
 */
export function createBytePairCounter(rankFile: string, splitPattern: RegExp): (text: string) => number {
  const NO_RANK = 0x7fffffff;
  // The rank file: "<base64> <rank>\n" per token, read in one pass without a string per line.
  let tokenCount = 0;
  for (let at = rankFile.indexOf(' '); at !== -1; at = rankFile.indexOf(' ', at + 1)) tokenCount += 1;
  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const sextets = new Int8Array(128).fill(-1);
  for (let index = 0; index < 64; index += 1) sextets[BASE64.charCodeAt(index)] = index;
  let bytes = new Uint8Array(Math.ceil((rankFile.length * 3) / 4));
  const starts = new Uint32Array(tokenCount + 1);
  const ranks = new Int32Array(tokenCount);
  let entry = 0;
  let end = 0;
  let position = 0;
  while (entry < tokenCount) {
    starts[entry] = end;
    let bits = 0;
    let bitCount = 0;
    let code = rankFile.charCodeAt(position);
    for (; code !== 32; code = rankFile.charCodeAt(++position)) {
      if (code === 61) continue; // "=" padding
      bits = ((bits << 6) | sextets[code]) & 0xffffff;
      bitCount += 6;
      if (bitCount >= 8) {
        bitCount -= 8;
        bytes[end] = (bits >> bitCount) & 0xff;
        end += 1;
      }
    }
    let rank = 0;
    for (
      code = rankFile.charCodeAt(++position);
      code >= 48 && code <= 57;
      code = rankFile.charCodeAt(++position)
    ) {
      rank = rank * 10 + code - 48;
    }
    while (position < rankFile.length && rankFile.charCodeAt(position) !== 10) position += 1;
    position += 1;
    ranks[entry] = rank;
    entry += 1;
  }
  starts[tokenCount] = end;
  bytes = bytes.slice(0, end);

  let capacity = 1;
  while (capacity < tokenCount * 2) capacity *= 2;
  const mask = capacity - 1;
  const slots = new Int32Array(capacity); // entry index + 1; 0 is empty

  function hashOf(source: Uint8Array, from: number, to: number): number {
    let hash = 0x811c9dc5;
    for (let index = from; index < to; index += 1) hash = Math.imul(hash ^ source[index], 0x01000193);
    return hash >>> 0;
  }

  for (entry = 0; entry < tokenCount; entry += 1) {
    let slot = hashOf(bytes, starts[entry], starts[entry + 1]) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = entry + 1;
  }

  /** The rank of `source[from, to)` as one token, or NO_RANK. */
  function rankOf(source: Uint8Array, from: number, to: number): number {
    const length = to - from;
    let slot = hashOf(source, from, to) & mask;
    for (let found = slots[slot]; found !== 0; found = slots[slot]) {
      const tokenStart = starts[found - 1];
      if (starts[found] - tokenStart === length) {
        let index = 0;
        while (index < length && bytes[tokenStart + index] === source[from + index]) index += 1;
        if (index === length) return ranks[found - 1];
      }
      slot = (slot + 1) & mask;
    }
    return NO_RANK;
  }

  let piece = new Uint8Array(256);
  let partStarts = new Int32Array(257);
  let partRanks = new Int32Array(257);
  const encoder = new TextEncoder();
  // Pieces that are not one token, by text: prose repeats its words
  const merged = new Map<string, number>();
  const MERGED_LIMIT = 50_000;

  /** The piece's UTF-8 bytes into `piece`; answers their length. */
  function encodePiece(text: string): number {
    if (text.length * 3 > piece.length) piece = new Uint8Array(text.length * 3);
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code >= 128) return encoder.encodeInto(text, piece).written;
      piece[index] = code;
    }
    return text.length;
  }

  /** How many tokens the bytes piece[0, length) merge into. */
  function mergeCount(length: number): number {
    if (length + 1 > partStarts.length) {
      partStarts = new Int32Array(length + 1);
      partRanks = new Int32Array(length + 1);
    }
    // parts: partStarts[0 .. parts]; partRanks[i] = rank of the join of part i and part i + 1
    let parts = length;
    for (let index = 0; index <= length; index += 1) {
      partStarts[index] = index;
      partRanks[index] = index + 2 <= length ? rankOf(piece, index, index + 2) : NO_RANK;
    }
    while (parts > 1) {
      let lowest = NO_RANK;
      let at = -1;
      for (let index = 0; index < parts - 1; index += 1) {
        if (partRanks[index] < lowest) {
          lowest = partRanks[index];
          at = index;
        }
      }
      if (at === -1) break;
      // join part `at` with the next: drop its start, and the join's rank
      partStarts.copyWithin(at + 1, at + 2, parts + 1);
      partRanks.copyWithin(at, at + 1, parts + 1);
      parts -= 1;
      partRanks[at] = at + 2 <= parts ? rankOf(piece, partStarts[at], partStarts[at + 2]) : NO_RANK;
      if (at > 0) partRanks[at - 1] = rankOf(piece, partStarts[at - 1], partStarts[at + 1]);
    }
    return parts;
  }

  function countPiece(text: string): number {
    const length = encodePiece(text);
    if (length <= 1 || rankOf(piece, 0, length) !== NO_RANK) return 1;
    const known = merged.get(text);
    if (known !== undefined) return known;
    const count = mergeCount(length);
    if (merged.size >= MERGED_LIMIT) merged.clear();
    merged.set(text, count);
    return count;
  }

  const pattern = new RegExp(splitPattern.source, 'gu');
  return (text: string): number => {
    let count = 0;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match[0] === '') pattern.lastIndex += 1;
      else count += countPiece(match[0]);
    }
    return count;
  };
}
