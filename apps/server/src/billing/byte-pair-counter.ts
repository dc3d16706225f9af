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
  // The parts of the piece being merged, each known by the offset it starts at: the next part's start, the
  // previous one's, and the rank of joining it with the next (NO_RANK: no such token, or merged away).
  let nextStart = new Int32Array(257);
  let previousStart = new Int32Array(257);
  let joinRank = new Int32Array(257);
  // Candidate joins, lowest rank first and the leftmost among equals: rank * 2^32 + start (exact in a double
  // while ranks stay below 2^21). A candidate whose rank is no longer its part's is stale and skipped.
  let heap = new Float64Array(771);
  const KEPT_PART_ARRAYS = 65_536;
  let heapSize = 0;
  const START_SPAN = 2 ** 32;
  const encoder = new TextEncoder();
  // Pieces that are not one token, by text: prose repeats its words
  const merged = new Map<string, number>();
  const MERGED_LIMIT = 50_000;
  const MERGED_KEY_LIMIT = 256;

  function pushJoin(rank: number, start: number): void {
    let at = heapSize;
    heapSize += 1;
    const key = rank * START_SPAN + start;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (heap[parent] <= key) break;
      heap[at] = heap[parent];
      at = parent;
    }
    heap[at] = key;
  }

  function popJoin(): number {
    const top = heap[0];
    heapSize -= 1;
    const last = heap[heapSize];
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= heapSize) break;
      if (child + 1 < heapSize && heap[child + 1] < heap[child]) child += 1;
      if (heap[child] >= last) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = last;
    return top;
  }

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

  /** Records the rank of joining the part at `start` with the next one, and offers the join. */
  function offerJoin(start: number, length: number): void {
    const next = nextStart[start];
    const rank = next < length ? rankOf(piece, start, nextStart[next]) : NO_RANK;
    joinRank[start] = rank;
    if (rank !== NO_RANK) pushJoin(rank, start);
  }

  /**
   * How many tokens the bytes piece[0, length) merge into: from single bytes, the join of lowest rank is
   * made first (the leftmost of equal ones), until no join of two adjacent parts is a token. With a heap of
   * candidate joins this takes n log n steps, where rescanning every part for each join took n^2 (a
   * 50,000-character run of "=" took 1.4 s).
   */
  function mergeCount(length: number): number {
    if (length + 1 > nextStart.length) sizeParts(length);
    const count = mergeParts(length);
    // a piece of megabytes (a run of one symbol) does not keep ~31 bytes per byte of it for good
    if (length > KEPT_PART_ARRAYS) {
      sizeParts(256);
      piece = new Uint8Array(256);
    }
    return count;
  }

  function sizeParts(length: number): void {
    nextStart = new Int32Array(length + 1);
    previousStart = new Int32Array(length + 1);
    joinRank = new Int32Array(length + 1);
    heap = new Float64Array(3 * length + 3);
  }

  function mergeParts(length: number): number {
    heapSize = 0;
    for (let start = 0; start < length; start += 1) {
      nextStart[start] = start + 1;
      previousStart[start] = start - 1;
    }
    for (let start = 0; start < length; start += 1) offerJoin(start, length);
    let parts = length;
    while (heapSize > 0) {
      const key = popJoin();
      const rank = Math.floor(key / START_SPAN);
      const start = key - rank * START_SPAN;
      if (joinRank[start] !== rank) continue;
      // the part at `start` takes in the next one
      const next = nextStart[start];
      const after = nextStart[next];
      nextStart[start] = after;
      if (after < length) previousStart[after] = start;
      joinRank[next] = NO_RANK;
      parts -= 1;
      offerJoin(start, length);
      if (previousStart[start] >= 0) offerJoin(previousStart[start], length);
    }
    return parts;
  }

  function countPiece(text: string): number {
    const length = encodePiece(text);
    if (length <= 1 || rankOf(piece, 0, length) !== NO_RANK) return 1;
    const known = merged.get(text);
    if (known !== undefined) return known;
    const count = mergeCount(length);
    if (text.length > MERGED_KEY_LIMIT) return count;
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
