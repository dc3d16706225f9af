import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { entryOf, newMap } from '../map-entry';
import { withParameters } from './precompiled-query';
import type { RunStatement } from '../db/direct-statements';

/**
 * The largest statement, in rows. A batch of n rows runs as chunks whose sizes are powers of two (70 rows:
 * 64 + 4 + 2), so it takes at most a handful of statements, and each shape has at most seven compiled texts:
 * few enough for the SQLite statement cache (db/database.ts), which is emptied whole when it fills up.
 */
export const MAX_ROWS_PER_STATEMENT = 64;

interface RowsStatement {
  compiled: CompiledQuery;
  /** for each parameter, its place among the rows' values (row after row); null when they are in order */
  slots: number[] | null;
}

/**
 * The next chunk of a statement with `left` rows to go (at least one): 64, else the largest power of two
 * that fits — so the chunks are 64s, then the binary digits of the rest.
 */
export function nextChunkSize(left: number): number {
  let size = MAX_ROWS_PER_STATEMENT;
  while (size > left) size /= 2;
  return size;
}

/** The chunk sizes a statement over `count` rows is split into (nextChunkSize, one after another). */
export function chunkSizes(count: number): number[] {
  const sizes: number[] = [];
  for (let left = count; left > 0; left -= sizes[sizes.length - 1]) sizes.push(nextChunkSize(left));
  return sizes;
}

/**
 * A statement over several rows (a multi-row INSERT, an upsert, a DELETE … IN), compiled once per database,
 * shape and number of rows, like precompile() does for one-row statements: building a 30-column INSERT of a
 * dozen rows with Kysely costs more than SQLite takes to run it. `build` gets sample rows whose every value
 * is a distinct stand-in, to find where each value goes; every parameter of the statement must be one.
 */
export class PrecompiledRows {
  /**
   * Keyed by the adapter, which a transaction shares with its database, then by shape and number of rows:
   * two maps rather than one keyed by `${size}${shape}`, a string that was built on every execute.
   */
  private readonly byAdapter = new WeakMap<object, Map<string, Map<number, RowsStatement>>>();

  constructor(
    private readonly build: (
      db: Kysely<Database>,
      shape: string,
      rows: Array<Record<string, unknown>>,
    ) => Compilable,
  ) {}

  /**
   * Runs the statement over `count` rows of `columns` (the same `shape`, which names the columns and
   * whatever else the statement depends on), `values` holding them row after row. `run` runs each statement
   * (writeTransaction's runner inside a transaction); by default `db` does. With `isCounted`, answers the rows
   * changed, each statement being expected to change one per row it has (RunStatement's `expected`);
   * without, answers 0 and reads no result.
   */
  async execute(
    db: Kysely<Database>,
    shape: string,
    columns: readonly string[],
    values: readonly unknown[],
    count: number,
    run: RunStatement = (query) => db.executeQuery(query),
    isCounted = false,
  ): Promise<number> {
    let changed = 0;
    let offset = 0;
    let left = count;
    while (left > 0) {
      const size = nextChunkSize(left);
      left -= size;
      const { compiled, slots } = this.statement(db, shape, columns, size);
      const width = columns.length;
      const end = offset + size * width;
      const parameters =
        slots === null
          ? offset === 0 && end === values.length
            ? values
            : values.slice(offset, end)
          : slots.map((slot) => values[offset + slot]);
      if (isCounted) {
        const result = await run(withParameters(compiled, parameters), size);
        changed += Number(result.numAffectedRows ?? 0);
      } else {
        await run(withParameters(compiled, parameters));
      }
      offset = end;
    }
    return changed;
  }

  private statement(
    db: Kysely<Database>,
    shape: string,
    columns: readonly string[],
    size: number,
  ): RowsStatement {
    const adapter = db.getExecutor().adapter;
    const bySize = entryOf(entryOf(this.byAdapter, adapter, newMap), shape, newMap);
    let entry = bySize.get(size);
    if (!entry) {
      const standIns = new Map<string, number>();
      const rows = Array.from({ length: size }, (_, row) =>
        Object.fromEntries(
          columns.map((column, index) => {
            const standIn = `\u0000rows${row}:${index}`;
            standIns.set(standIn, row * columns.length + index);
            return [column, standIn];
          }),
        ),
      );
      const compiled = this.build(db, shape, rows).compile();
      const slots = compiled.parameters.map((value) => standIns.get(value as string) ?? -1);
      if (slots.some((slot) => slot < 0)) throw new Error(`a value of ${shape} compiled to no parameter`);
      const isInOrder =
        slots.length === size * columns.length && slots.every((slot, index) => slot === index);
      entry = { compiled, slots: isInOrder ? null : slots };
      bySize.set(size, entry);
    }
    return entry;
  }
}
