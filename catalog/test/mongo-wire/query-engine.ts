// The one place that evaluates MongoDB's query language, through mingo.
import { Aggregator, ProcessingMode, Query } from 'mingo';
import type { SortSpec } from 'mingo/types';
import type { Document } from 'mongodb';
import { isPlainDocument } from './documents.js';

export interface Selection {
  readonly filter?: Document;
  readonly sort?: Document;
  readonly skip?: number;
  readonly limit?: number;
  readonly projection?: Document;
}

/**
 * The documents a find would return, in order. Without a projection they are
 * the stored objects themselves, which writes use as handles.
 */
export function select(documents: Document[], selection: Selection): Document[] {
  const { filter = {}, sort, skip, limit, projection } = selection;
  let cursor = new Query<Document>(filter, {}).find<Document>(documents, isEmpty(projection) ? undefined : projection);
  // mingo applies sort, skip and limit in that order whatever the call order,
  // and projects last, so a sort may use a field the projection drops.
  if (!isEmpty(sort)) cursor = cursor.sort(sort as SortSpec);
  if (skip) cursor = cursor.skip(skip);
  if (limit) cursor = cursor.limit(limit);
  return cursor.all();
}

export function matches(filter: Document, document: Document): boolean {
  return new Query<Document>(filter, {}).test(document);
}

/**
 * Runs an aggregation pipeline. Input documents are cloned first: mingo's
 * stages may write into nested objects of their input, which here are stored
 * documents.
 */
export function runPipeline(documents: Document[], pipeline: Document[], lookup: (collection: string) => Document[]): Document[] {
  return new Aggregator(withMongodCount(pipeline), { processingMode: ProcessingMode.CLONE_INPUT, collectionResolver: lookup }).run(documents);
}

// mingo's $count emits { field: 0 } for no input where mongod emits nothing.
// The $group form that MongoDB documents as equivalent to $count behaves like
// mongod in mingo too.
function withMongodCount(pipeline: Document[]): Document[] {
  return pipeline.flatMap((stage) => {
    if (typeof stage.$count === 'string') return [{ $group: { _id: null, [stage.$count]: { $sum: 1 } } }, { $project: { _id: 0 } }];
    if (isPlainDocument(stage.$facet)) {
      const facets = Object.entries(stage.$facet).map(([name, facet]) => [name, withMongodCount(facet)]);
      return [{ $facet: Object.fromEntries(facets) }];
    }
    return [stage];
  });
}

function isEmpty(document: Document | undefined): document is undefined {
  return document === undefined || Object.keys(document).length === 0;
}
