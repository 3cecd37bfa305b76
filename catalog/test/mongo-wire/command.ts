// What every command handler receives and returns, and readers for the
// arguments many of them share.
import type { Document } from 'mongodb';
import type { CursorRegistry } from './cursors.js';
import { CommandError } from './errors.js';
import type { MemoryStore } from './store.js';

export interface CommandContext {
  readonly store: MemoryStore;
  readonly cursors: CursorRegistry;
  /** The command's `$db`. */
  readonly database: string;
  readonly connectionId: number;
}

/** Returns the reply without `ok`, or throws a CommandError. */
export type CommandHandler = (command: Document, context: CommandContext) => Document;

/** "database.collection" for the collection the command's first field names, as in { find: 'events' }. */
export function targetNamespace(command: Document, { database }: CommandContext): string {
  const name: unknown = Object.values(command)[0];
  if (typeof name !== 'string' || name === '') {
    throw new CommandError('InvalidNamespace', `collection name must be a non-empty string, got ${JSON.stringify(name)}`);
  }
  return `${database}.${name}`;
}

/** Reads an optional field that must be a document (not an array) when present. */
export function optionalDocument(command: Document, field: string): Document | undefined {
  const value: unknown = command[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new CommandError('BadValue', `'${field}' must be a document`);
  }
  return value as Document;
}

/** Reads an optional field that must be an array of documents when present. */
export function documentArray(command: Document, field: string): Document[] {
  const value: unknown = command[field] ?? [];
  if (!Array.isArray(value)) throw new CommandError('BadValue', `'${field}' must be an array`);
  return value as Document[];
}
