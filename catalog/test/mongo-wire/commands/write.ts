// insert, update, delete and findAndModify. The driver sends the statements of
// insert/update/delete as OP_MSG document sequences (documents, updates,
// deletes), which the codec has already folded into the command as arrays.
import type { Document } from 'mongodb';
import { documentArray, optionalDocument, targetNamespace, type CommandHandler } from '../command.js';
import { sameBson, withIdFirst } from '../documents.js';
import { CommandError, toCommandError } from '../errors.js';
import { select } from '../query-engine.js';
import type { MemoryStore } from '../store.js';
import { updatedDocument, upsertDocument, type UpdateSpec } from '../update-document.js';

interface UpdateOutcome {
  readonly matched: number;
  readonly modified: number;
  readonly upsertedId?: unknown;
}

const findAndModify: CommandHandler = (command, context) => {
  const namespace = targetNamespace(command, context);
  const filter = optionalDocument(command, 'query') ?? {};
  const fields = optionalDocument(command, 'fields');
  const collection = context.store.collection(namespace);
  const [current] = select(collection?.candidates(filter) ?? [], { filter, sort: optionalDocument(command, 'sort'), limit: 1 });
  const shown = (document: Document): Document | undefined => select([document], { projection: fields })[0];

  if (command.remove === true) {
    if (current) collection?.remove(current);
    return { lastErrorObject: { n: current ? 1 : 0 }, value: current ? shown(current) : null };
  }
  const spec = updateSpecOf(command.update, command.arrayFilters);
  if (current && collection) {
    const next = updatedDocument(current, spec, { filter });
    if (!sameBson(current, next)) collection.replace(current, next);
    return { lastErrorObject: { n: 1, updatedExisting: true }, value: shown(command.new === true ? next : current) };
  }
  if (command.upsert !== true) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null };
  const inserted = upsertDocument(filter, spec);
  context.store.ensureCollection(namespace).insert(inserted);
  return {
    lastErrorObject: { n: 1, updatedExisting: false, upserted: inserted._id },
    value: command.new === true ? shown(inserted) : null,
  };
};

export const writeCommands: Record<string, CommandHandler> = {
  insert(command, context) {
    const collection = context.store.ensureCollection(targetNamespace(command, context));
    let inserted = 0;
    const writeErrors = runStatements(command, 'documents', (document) => {
      collection.insert(withIdFirst(document));
      inserted += 1;
    });
    return { n: inserted, ...writeErrors };
  },

  update(command, context) {
    const namespace = targetNamespace(command, context);
    let matched = 0;
    let modified = 0;
    const upserted: Document[] = [];
    const writeErrors = runStatements(command, 'updates', (statement, index) => {
      const outcome = applyUpdateStatement(context.store, namespace, statement);
      matched += outcome.matched;
      modified += outcome.modified;
      if (outcome.upsertedId !== undefined) upserted.push({ index, _id: outcome.upsertedId });
    });
    return { n: matched + upserted.length, nModified: modified, ...(upserted.length > 0 ? { upserted } : {}), ...writeErrors };
  },

  delete(command, context) {
    const collection = context.store.collection(targetNamespace(command, context));
    let deleted = 0;
    const writeErrors = runStatements(command, 'deletes', (statement) => {
      // limit 1 deletes the first match; limit 0 deletes all of them.
      const filter: Document = statement.q ?? {};
      const targets = select(collection?.candidates(filter) ?? [], { filter, limit: statement.limit === 1 ? 1 : 0 });
      for (const target of targets) collection?.remove(target);
      deleted += targets.length;
    });
    return { n: deleted, ...writeErrors };
  },

  findAndModify,
  findandmodify: findAndModify,
};

/**
 * Runs each statement of a write command. A failing statement becomes a
 * `writeErrors` entry, not a command error; an ordered command (the default)
 * stops at the first one.
 */
function runStatements(command: Document, field: string, run: (statement: Document, index: number) => void): Document {
  const writeErrors: Document[] = [];
  for (const [index, statement] of documentArray(command, field).entries()) {
    try {
      run(statement, index);
    } catch (error) {
      writeErrors.push(toCommandError(error).toWriteError(index));
      if (command.ordered !== false) break;
    }
  }
  return writeErrors.length > 0 ? { writeErrors } : {};
}

function applyUpdateStatement(store: MemoryStore, namespace: string, statement: Document): UpdateOutcome {
  const filter: Document = statement.q ?? {};
  const spec = updateSpecOf(statement.u, statement.arrayFilters);
  const collection = store.collection(namespace);
  const targets = select(collection?.candidates(filter) ?? [], { filter, limit: statement.multi === true ? 0 : 1 });
  if (targets.length === 0 && statement.upsert === true) {
    const inserted = upsertDocument(filter, spec);
    store.ensureCollection(namespace).insert(inserted);
    return { matched: 0, modified: 0, upsertedId: inserted._id };
  }
  let modified = 0;
  for (const current of targets) {
    const next = updatedDocument(current, spec, { filter });
    if (sameBson(current, next)) continue;
    collection?.replace(current, next);
    modified += 1;
  }
  return { matched: targets.length, modified };
}

function updateSpecOf(update: unknown, arrayFilters: unknown): UpdateSpec {
  if (typeof update !== 'object' || update === null) {
    throw new CommandError('FailedToParse', 'the update must be a document or a pipeline (or remove: true for findAndModify)');
  }
  return { update: update as Document | Document[], ...(Array.isArray(arrayFilters) ? { arrayFilters } : {}) };
}
