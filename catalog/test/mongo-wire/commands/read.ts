// find, aggregate, count, distinct and the cursor commands. A missing
// collection reads as empty, as on mongod.
import { resolve, unique } from 'mingo/util';
import type { Document } from 'mongodb';
import { documentArray, optionalDocument, targetNamespace, type CommandHandler } from '../command.js';
import { cursorIdOf } from '../cursors.js';
import { cloneDocument } from '../documents.js';
import { CommandError } from '../errors.js';
import { runPipeline, select } from '../query-engine.js';
import type { MemoryStore } from '../store.js';

// Stages that write to another collection; mingo would write into a copy.
const WRITING_STAGES = ['$out', '$merge'];

export const readCommands: Record<string, CommandHandler> = {
  find(command, context) {
    const namespace = targetNamespace(command, context);
    const filter = optionalDocument(command, 'filter');
    const results = select(documentsOf(context.store, namespace, filter), {
      filter,
      sort: optionalDocument(command, 'sort'),
      projection: optionalDocument(command, 'projection'),
      skip: command.skip,
      limit: command.limit,
    });
    // With a limit and no batchSize, mongod returns up to `limit` at once.
    const batchSize: number | undefined = command.batchSize ?? (command.limit || undefined);
    return { cursor: context.cursors.first(namespace, results, { batchSize, singleBatch: command.singleBatch === true }) };
  },

  aggregate(command, context) {
    // { aggregate: 1 } runs a collection-less pipeline, e.g. one starting with $documents.
    const namespace = command.aggregate === 1 ? undefined : targetNamespace(command, context);
    const pipeline = documentArray(command, 'pipeline');
    const writing = pipeline.find((stage) => WRITING_STAGES.some((operator) => operator in stage));
    if (writing) throw new CommandError('NotImplemented', `${Object.keys(writing)[0]} is not supported by the mongo-wire test server`);
    if (command.explain === true) throw new CommandError('NotImplemented', 'explain is not supported by the mongo-wire test server');
    const input = namespace === undefined ? [] : documentsOf(context.store, namespace);
    // $lookup and friends read other collections of the same database; they
    // get copies so no stage can write into stored documents.
    const lookup = (name: string): Document[] => documentsOf(context.store, `${context.database}.${name}`).map(cloneDocument);
    const results = runPipeline(input, pipeline, lookup);
    const batchSize: number | undefined = optionalDocument(command, 'cursor')?.batchSize;
    return { cursor: context.cursors.first(namespace ?? `${context.database}.$cmd.aggregate`, results, { batchSize }) };
  },

  getMore(command, { cursors }) {
    return { cursor: cursors.next(cursorIdOf(command.getMore), command.batchSize) };
  },

  killCursors(command, { cursors }) {
    const ids: unknown[] = Array.isArray(command.cursors) ? command.cursors : [];
    const { killed, notFound } = cursors.kill(ids.map(cursorIdOf));
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [] };
  },

  // estimatedDocumentCount sends { count: name }; countDocuments uses aggregate.
  count(command, context) {
    const filter = optionalDocument(command, 'query');
    const matched = select(documentsOf(context.store, targetNamespace(command, context), filter), {
      filter,
      skip: command.skip,
      limit: command.limit,
    });
    return { n: matched.length };
  },

  distinct(command, context) {
    const key: unknown = command.key;
    if (typeof key !== 'string') throw new CommandError('BadValue', "'key' must be a string");
    const filter = optionalDocument(command, 'query');
    const matched = select(documentsOf(context.store, targetNamespace(command, context), filter), { filter });
    // An array value contributes its elements, as in mongod.
    const values = matched.flatMap((document) => [resolve(document, key)].flat()).filter((value) => value !== undefined);
    return { values: unique(values) };
  },
};

/** The documents a filter has to be tried on; all of them when there is no filter. */
function documentsOf(store: MemoryStore, namespace: string, filter?: Document): Document[] {
  return store.collection(namespace)?.candidates(filter) ?? [];
}
