// Document helpers that respect BSON value types. mingo's and the platform's
// generic object tools do not know ObjectId, Long or Binary, so copies and
// comparisons go through BSON itself.
import { BSON, ObjectId, type Document } from 'mongodb';

export function cloneDocument(document: Document): Document {
  return BSON.deserialize(BSON.serialize(document));
}

/** Equal as BSON: same fields, same order, same values. */
export function sameBson(left: Document, right: Document): boolean {
  return Buffer.compare(BSON.serialize(left), BSON.serialize(right)) === 0;
}

/** A document as mongod stores it: `_id` first, generated when missing. */
export function withIdFirst(document: Document): Document {
  const { _id = new ObjectId(), ...rest } = document;
  return { _id, ...rest };
}

/** True for a plain object (the BSON document type), false for arrays and value classes such as ObjectId. */
export function isPlainDocument(value: unknown): value is Document {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** True for a document of operators, such as { $set: ... } or { $gt: 1 }. */
export function isOperatorDocument(value: unknown): boolean {
  return isPlainDocument(value) && (Object.keys(value)[0] ?? '').startsWith('$');
}
