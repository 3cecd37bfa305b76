// What one update statement does to one document. An update is a document of
// operators (applied by mingo), a replacement document, or an aggregation
// pipeline; the update and findAndModify commands share these rules.
import { update as applyOperators } from 'mingo';
import { setValue } from 'mingo/util';
import type { Document } from 'mongodb';
import { cloneDocument, isOperatorDocument, sameBson, withIdFirst } from './documents.js';
import { CommandError } from './errors.js';
import { runPipeline } from './query-engine.js';

export interface UpdateSpec {
  readonly update: Document | Document[];
  readonly arrayFilters?: Document[];
}

interface UpdateSituation {
  /** The filter that selected `current`; it resolves the positional `$` operator. */
  readonly filter?: Document;
  /** True when the update builds an upserted document, so $setOnInsert applies. */
  readonly inserting?: boolean;
}

/** The document `current` becomes. `current` itself is not touched. */
export function updatedDocument(current: Document, spec: UpdateSpec, situation: UpdateSituation = {}): Document {
  const { update, arrayFilters } = spec;
  let next: Document;
  if (Array.isArray(update)) {
    next = runPipeline([current], update, () => [])[0] ?? {};
  } else if (isOperatorDocument(update)) {
    next = cloneDocument(current);
    applyOperators(next, operatorsFor(update, situation.inserting === true), arrayFilters, situation.filter);
  } else {
    // A replacement keeps the stored _id (and its first position).
    next = current._id === undefined ? { ...update } : { _id: current._id, ...update };
  }
  if (current._id !== undefined && !sameBson({ _id: current._id }, { _id: next._id })) {
    throw new CommandError('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  return next;
}

/**
 * The document an upsert inserts when nothing matched: the filter's equality
 * conditions (only its _id for a replacement), with the update applied and
 * $setOnInsert honoured.
 */
export function upsertDocument(filter: Document, spec: UpdateSpec): Document {
  const equalities = equalityFields(filter, {});
  const isReplacement = !Array.isArray(spec.update) && !isOperatorDocument(spec.update);
  const seed = isReplacement ? (equalities._id === undefined ? {} : { _id: equalities._id }) : equalities;
  return withIdFirst(updatedDocument(seed, spec, { inserting: true }));
}

// mingo has no $setOnInsert: it is dropped for matched documents and becomes
// part of $set for an inserted one.
function operatorsFor(update: Document, inserting: boolean): Document {
  const { $setOnInsert, ...operators } = update;
  if (!inserting || $setOnInsert === undefined) return operators;
  return { ...operators, $set: { ...operators.$set, ...$setOnInsert } };
}

// Collects { path: value } and { path: { $eq: value } } conditions, including
// those inside $and, the way mongod seeds an upserted document.
function equalityFields(filter: Document, seed: Document): Document {
  for (const [path, condition] of Object.entries(filter)) {
    if (path === '$and' && Array.isArray(condition)) {
      for (const clause of condition) equalityFields(clause, seed);
    } else if (!path.startsWith('$')) {
      const value: unknown = isOperatorDocument(condition) ? condition.$eq : condition;
      if (value !== undefined && !(value instanceof RegExp)) setValue(seed, path, value);
    }
  }
  return seed;
}
