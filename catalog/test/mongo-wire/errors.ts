// Server errors with mongod's codes and code names, so the driver raises the
// same MongoServerError (and the same `code`) a real server would cause.
import { BSON, type Document } from 'mongodb';
import { MingoError } from 'mingo/util';

const ERROR_CODES = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  Unauthorized: 13,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  NotImplemented: 238,
  DuplicateKey: 11000,
} as const;

export type ErrorCodeName = keyof typeof ERROR_CODES;

export class CommandError extends Error {
  constructor(
    readonly codeName: ErrorCodeName,
    message: string,
    /** Extra fields mongod adds to this error, such as keyPattern and keyValue. */
    readonly details: Document = {},
  ) {
    super(message);
  }

  get code(): number {
    return ERROR_CODES[this.codeName];
  }

  /** The reply when the whole command fails. */
  toReply(): Document {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.details };
  }

  /** The `writeErrors` entry when one statement of a write command fails. */
  toWriteError(index: number): Document {
    return { index, code: this.code, ...this.details, errmsg: this.message };
  }
}

/** mongod's E11000 error, with the index and the key that collided. */
export function duplicateKeyError(namespace: string, indexName: string, keyPattern: Document, keyValue: Document): CommandError {
  const shownKey = Object.entries(keyValue)
    .map(([field, value]) => `${field}: ${BSON.EJSON.stringify(value, { relaxed: true })}`)
    .join(', ');
  return new CommandError('DuplicateKey', `E11000 duplicate key error collection: ${namespace} index: ${indexName} dup key: { ${shownKey} }`, {
    keyPattern,
    keyValue,
  });
}

/**
 * Turns what a command threw into a server error: mingo rejects bad query,
 * update and pipeline documents the way mongod answers BadValue; anything else
 * is a bug in the double and is reported as InternalError rather than hanging
 * the client.
 */
export function toCommandError(error: unknown): CommandError {
  if (error instanceof CommandError) return error;
  if (error instanceof MingoError) return new CommandError('BadValue', error.message);
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return new CommandError('InternalError', `mongo-wire test server bug: ${message}`);
}
