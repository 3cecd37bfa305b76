// Server-side cursors: a query's results are computed at once, the first
// batch is returned, and the rest waits here for getMore.
import { BSON, Long, type Document } from 'mongodb';
import { CommandError } from './errors.js';
import { DEFAULT_FIRST_BATCH_SIZE, MAX_BSON_OBJECT_SIZE } from './limits.js';

interface OpenCursor {
  readonly namespace: string;
  readonly pending: Document[];
}

export interface BatchOptions {
  readonly batchSize?: number;
  /** Return one batch and close the cursor, as find's singleBatch asks. */
  readonly singleBatch?: boolean;
}

export class CursorRegistry {
  private readonly open = new Map<number, OpenCursor>();
  private nextId = 1;

  /** The `cursor` field of a find, aggregate or list* reply. */
  first(namespace: string, results: Document[], options: BatchOptions = {}): Document {
    const pending = [...results];
    const firstBatch = takeBatch(pending, options.batchSize ?? DEFAULT_FIRST_BATCH_SIZE);
    let id = 0;
    if (pending.length > 0 && !options.singleBatch) {
      id = this.nextId++;
      this.open.set(id, { namespace, pending });
    }
    return { firstBatch, id: Long.fromNumber(id), ns: namespace };
  }

  /** The `cursor` field of a getMore reply. */
  next(id: number, batchSize: number | undefined): Document {
    const cursor = this.open.get(id);
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${id} not found`);
    // getMore's batchSize is optional and a 0 means none; a batch is then
    // bounded by size only.
    const nextBatch = takeBatch(cursor.pending, batchSize || Number.POSITIVE_INFINITY);
    if (cursor.pending.length === 0) this.open.delete(id);
    return { nextBatch, id: Long.fromNumber(cursor.pending.length > 0 ? id : 0), ns: cursor.namespace };
  }

  /** Closes cursors; returns which ids were open (killed) and which were not. */
  kill(ids: number[]): { killed: number[]; notFound: number[] } {
    const killed = ids.filter((id) => this.open.delete(id));
    return { killed, notFound: ids.filter((id) => !killed.includes(id)) };
  }

  clear(): void {
    this.open.clear();
  }
}

/** Reads a cursor id the driver sent: promoted to a number when it fits, a Long otherwise. */
export function cursorIdOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (Long.isLong(value)) return value.toNumber();
  throw new CommandError('BadValue', `cursor id must be a number, got ${typeof value}`);
}

// A batch also stops before it would outgrow one BSON document, as mongod's
// do, so a reply always fits the limits announced in the handshake.
function takeBatch(pending: Document[], count: number): Document[] {
  let bytes = 0;
  let taken = 0;
  while (taken < pending.length && taken < count) {
    bytes += BSON.calculateObjectSize(pending[taken] as Document);
    if (taken > 0 && bytes > MAX_BSON_OBJECT_SIZE) break;
    taken += 1;
  }
  return pending.splice(0, taken);
}
