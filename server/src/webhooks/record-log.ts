/**
 * Where the webhook service keeps its state as a log of records: a file for
 * one gateway (`Journal`), a MongoDB collection for replicas sharing a
 * catalog (`MongoJournal`). A record counts once `append` has resolved.
 * Replaying records is idempotent, so a record seen twice changes nothing.
 */
export interface RecordLog<T> {
  append(record: T): Promise<void>;
  /** Records appended since the log was last rewritten: the owner rewrites it when this grows large. */
  readonly appended: number;
  /** Replaces what the log holds with `snapshot()`, the live state once every earlier append is stored. */
  rewrite(snapshot: () => readonly T[]): Promise<void>;
  /** Records other writers append, as they arrive (only a shared log has other writers). */
  follow?(follower: LogFollower<T>): void;
  close(): Promise<void>;
}

export interface LogFollower<T> {
  /** Records another writer appended, in log order. */
  records(records: T[]): void;
  /** The log was rewritten past what this reader had seen: state is rebuilt from `records`, the whole log. */
  reset(records: T[]): void;
}
