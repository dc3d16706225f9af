import type { ToolCallDelta } from '../../canonical/chat';

/** One tool call piece as an upstream streams it, before it is numbered. */
export interface StreamedToolCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

/**
 * Numbers a stream's tool calls 0, 1, 2… in the order they start, among tool calls only, by the key the
 * upstream files each under (its own index, a position or a content block's index).
 */
export class ToolCallNumbering {
  private readonly indexes = new Map<number, number>();

  /** The number of a call that starts under this key: the next one. */
  start(key: number): number {
    const index = this.indexes.size;
    this.indexes.set(key, index);
    return index;
  }

  /** The number of the call started under this key, if one was. */
  find(key: number): number | undefined {
    return this.indexes.get(key);
  }

  /**
   * The delta of a call piece, for upstreams that send a call's id, name and first arguments together and
   * then more arguments under the same key: a piece without an id under a known key adds arguments; any other
   * piece is a whole call head (a known key keeps its number).
   */
  delta(key: number, call: StreamedToolCall): ToolCallDelta {
    const known = this.find(key);
    if (known !== undefined && !call.id) return { index: known, function: { arguments: call.arguments } };
    return {
      index: known ?? this.start(key),
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    };
  }
}
