import type Joi from 'joi';
import { PredgateError } from '../errors.js';
import { reportDrift } from '../kit/drift.js';
import type { DriftSink } from '../kit/drift.js';
import type { MethodDeclaration } from './declaration.js';
import { compiledCheckOf } from './compiled-check.js';

/**
 * The gateway never sends a value outside its own model. An adapter answer is
 * checked against the method's declared result schema (ranges included)
 * before it leaves: in a list (or a page's `data`), an item that does not fit
 * is left out and reported as drift naming the item and the field, and the
 * rest is served; any other answer that does not fit is refused naming the
 * field. Whatever a venue sends, a client can trust the documented ranges
 * (a price in [0, 1], a change in [-1, 1]). Most answers fit: a check
 * compiled from the schema says so in a few µs, and joi (a few hundred µs
 * on an event) runs only on an answer that check cannot pass. Left-out
 * items go to `drift` when given (the caller's own count, handed over
 * rather than found through the call's async context), else to the sinks of
 * the call under way.
 */
export function conformAnswer(
  method: string,
  declaration: Pick<MethodDeclaration, 'result'>,
  value: unknown,
  venue: string,
  drift: DriftSink = reportDrift,
): unknown {
  if (compiledCheckOf(declaration.result.schema)?.(value)) return value;
  const { error } = declaration.result.schema.validate(value, checkOptions);
  if (!error) return value;
  const items = itemsOf(value);
  const dropped = new Map<number, Joi.ValidationErrorItem>();
  for (const detail of error.details) {
    const index = items ? detail.path[items.depth] : undefined;
    if (typeof index !== 'number') throw outsideModel(method, venue, detail);
    if (!dropped.has(index)) dropped.set(index, detail);
  }
  for (const [index, detail] of dropped) drift(outsideModel(method, venue, detail, idOf(items!.list[index], index)));
  const kept = items!.list.filter((_, index) => !dropped.has(index));
  return items!.depth === 0 ? kept : { ...(value as object), data: kept };
}

const checkOptions: Joi.ValidationOptions = { convert: false, abortEarly: false, errors: { label: false } };

/** The list of items in an answer: the answer itself, or a page's `data`; `depth` is where the item index sits in an error path. */
function itemsOf(value: unknown): { list: unknown[]; depth: number } | undefined {
  if (Array.isArray(value)) return { list: value, depth: 0 };
  const data = (value as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? { list: data, depth: 1 } : undefined;
}

function idOf(item: unknown, index: number): string {
  const record = (item ?? {}) as Record<string, unknown>;
  const id = record.marketId ?? record.id ?? record.outcomeId;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : `#${index}`;
}

function outsideModel(method: string, venue: string, detail: Joi.ValidationErrorItem, item?: string): PredgateError {
  const field = detail.path.join('.') || '(answer)';
  const what = item === undefined ? 'an answer' : `an item (${item})`;
  return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} gave ${what} outside Predgate's model for ${method}: ${field} ${detail.message}`, {
    exchange: venue,
    detail: { endpoint: `${method} answer`, field, rule: detail.type, drift: true, ...(item === undefined ? {} : { item }) },
  });
}
