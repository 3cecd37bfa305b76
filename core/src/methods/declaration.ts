import assert from 'node:assert/strict';
import Joi from 'joi';
import type { ErrorCode } from '../errors.js';
import { argumentBounds } from '../model/params.js';

/**
 * The vocabulary of the core method list: how one method is declared. Each
 * argument carries its TypeScript type as a phantom, so the adapter interface
 * is derived from the same declaration that drives routing and validation.
 */

/**
 * How an argument travels, which decides how a query string or a named
 * argument object is turned into it:
 * - `id`: a venue identifier; always a string, a JSON number is accepted only while exact.
 * - `ids`: a list of identifiers; a repeated query key.
 * - `string`, `integer`, `number`, `boolean`: a scalar under its own query key.
 * - `params`: an object of named arguments; takes every query key no other argument claims.
 * - `object`: one structured value; JSON text under its own query key.
 * - `list`: an array of structured values; only in a POST body.
 */
export type ArgumentKind = 'id' | 'ids' | 'string' | 'integer' | 'number' | 'boolean' | 'params' | 'object' | 'list';

export interface Argument<T = unknown, Optional extends boolean = boolean> {
  readonly name: string;
  readonly kind: ArgumentKind;
  readonly optional: Optional;
  readonly schema: Joi.Schema;
  /** Other names clients use for it (pmxt clients send `id` for an outcome id). */
  readonly aliases: readonly string[];
  /** Type carrier for derived signatures; never set at run time. */
  readonly type?: T;
}

interface ArgumentOptions {
  aliases?: readonly string[];
}

function argument<T>(kind: ArgumentKind, name: string, schema: Joi.Schema, options: ArgumentOptions = {}): Argument<T, false> {
  return { name, kind, optional: false, schema, aliases: options.aliases ?? [] };
}

const exactIdNumber = Joi.number()
  .integer()
  .custom((value: number) => String(value))
  .messages({ 'number.unsafe': '{{#label}} is too large to be exact as a number: send ids as strings' });

/** Builders for each argument kind. */
export const arg = {
  id: (name: string, options?: ArgumentOptions) =>
    argument<string>(
      'id',
      name,
      Joi.alternatives(Joi.string().min(1).max(argumentBounds.id), exactIdNumber)
        .messages({ 'alternatives.types': '{{#label}} must be an id (a string)' })
        .label(name),
      options,
    ),
  ids: (name: string) =>
    argument<string[]>('ids', name, Joi.array().items(Joi.string().min(1).max(argumentBounds.id)).single().min(1).max(argumentBounds.ids).label(name)),
  string: <T extends string = string>(name: string, schema: Joi.StringSchema = Joi.string().max(argumentBounds.word)) =>
    argument<T>('string', name, schema.label(name)),
  integer: (name: string, schema: Joi.NumberSchema = Joi.number().integer()) => argument<number>('integer', name, schema.label(name)),
  number: (name: string, schema: Joi.NumberSchema = Joi.number()) => argument<number>('number', name, schema.label(name)),
  boolean: (name: string) => argument<boolean>('boolean', name, Joi.boolean().truthy('1', 'yes').falsy('0', 'no').label(name)),
  params: <T>(name: string, schema: Joi.ObjectSchema<T>) => argument<T>('params', name, schema.label(name)),
  object: <T>(name: string, schema: Joi.Schema<T>) => argument<T>('object', name, schema.label(name)),
  list: <T>(name: string, schema: Joi.ArraySchema) => argument<T[]>('list', name, schema.max(argumentBounds.items).label(name)),
};

export function optional<T>(declared: Argument<T, false>): Argument<T, true> {
  return { ...declared, optional: true };
}

/** A result schema with the TypeScript type it stands for. */
export interface Result<R> {
  readonly schema: Joi.Schema;
  readonly type?: R;
}

export function returns<R>(schema: Joi.Schema): Result<R> {
  return { schema };
}

export type Verb = 'GET' | 'POST';

export type Answerer = 'adapter' | 'gateway';

/** A method as an adapter (or core, for it) implements it. */
export type MethodImplementation = (...args: unknown[]) => unknown;

/** An adapter as a derivation sees it: its id, and its own methods through `ownMethod`. */
export interface DerivationSource {
  readonly id: string;
}

export interface MethodOptions<A extends readonly Argument[], R, G extends Answerer = 'adapter', C extends boolean = false> {
  /** One line for the docs, the OpenAPI document and `describe`. */
  doc: string;
  args: A;
  result: Result<R>;
  /** POST always works; GET only where every argument fits a query string. */
  verbs: readonly Verb[];
  /** The catalog may answer it instead of the venue. */
  catalog?: C;
  /** It acts on a venue account, so it needs the caller's venue credentials. */
  credentials?: boolean;
  /** With `since`/`until` in its params it reads the archive: the gateway answers, never the adapter. */
  archive?: boolean;
  /** Who answers: the venue's adapter (default), or the gateway from what it knows of the adapter. */
  answeredBy?: G;
  /** The error when the one thing it looks up does not exist (a market, an event). */
  notFound?: ErrorCode;
  /**
   * Rewrites argument lists that older clients still send into the declared
   * form, before validation. Kept next to the method it concerns.
   */
  legacyArgs?: (args: unknown[]) => unknown[];
  /**
   * How core provides the method for an adapter that does not implement it,
   * from the adapter's own methods (or from nothing, for a pure computation);
   * undefined when the adapter lacks what it needs. Such a method is
   * `emulated` in the capability map.
   */
  derive?: (adapter: DerivationSource) => MethodImplementation | undefined;
}

export interface MethodDeclaration<
  A extends readonly Argument[] = readonly Argument[],
  R = unknown,
  G extends Answerer = Answerer,
  C extends boolean = boolean,
> extends Required<Omit<MethodOptions<A, R, G, C>, 'legacyArgs' | 'notFound' | 'derive'>> {
  readonly legacyArgs?: (args: unknown[]) => unknown[];
  readonly notFound?: ErrorCode;
  readonly derive?: (adapter: DerivationSource) => MethodImplementation | undefined;
  /** Set for streaming methods: the adapter returns a feed of payloads of the result type. */
  readonly stream?: StreamOptions;
}

/**
 * How a streaming method streams. The adapter implements it for one symbol and
 * returns a `Feed`; the gateway shares one feed per (venue, method, symbol)
 * among every client, and gives each client its own view of the payloads.
 */
export interface StreamOptions {
  /**
   * `one`: the first argument is the symbol watched. `many`: the first argument
   * lists symbols, each watched through the method named by `each`, one data
   * frame per symbol (HTTP answers with a record keyed by symbol).
   */
  readonly symbols: 'one' | 'many';
  readonly each?: string;
  /**
   * What a slow client may lose: `latest` when only the newest payload matters
   * (a full book replaces the one before), `all` when every payload counts (trades).
   */
  readonly keep: 'latest' | 'all';
  /** Which arguments name the venue subscription: the rest only shape what one client sees. */
  readonly upstreamArgs: number;
  /** One client's view of a shared payload, from that client's arguments (a depth limit, a since filter). */
  readonly view?: (payload: unknown, args: readonly unknown[]) => unknown;
  /** The method that ends a watch started over HTTP, for clients without a socket. */
  readonly stop?: string;
}

export type StreamDeclaration<A extends readonly Argument[] = readonly Argument[], R = unknown> = MethodDeclaration<A, R, 'adapter', false> & {
  readonly stream: StreamOptions;
};

/**
 * Declares a streaming method: an adapter method returning a feed, served on
 * `/ws` by subscription and over HTTP (POST, answered with the next payload).
 */
export function stream<const A extends readonly Argument[], R>(
  options: Omit<MethodOptions<A, R>, 'verbs' | 'catalog' | 'archive' | 'answeredBy'> & { stream: StreamOptions },
): StreamDeclaration<A, R> {
  const { stream: streamOptions, ...rest } = options;
  assert.ok(streamOptions.symbols === 'one' || streamOptions.each !== undefined, 'a stream of many symbols names the method each is watched with');
  assert.ok(streamOptions.upstreamArgs >= 1 && streamOptions.upstreamArgs <= options.args.length, 'upstreamArgs counts leading arguments');
  return { ...method<A, R>({ ...rest, verbs: ['POST'] }), stream: streamOptions };
}

const queryKinds = new Set<ArgumentKind>(['id', 'ids', 'string', 'integer', 'number', 'boolean', 'params', 'object']);

/** Declares one method; checks, at load time, that the declaration is coherent. */
export function method<const A extends readonly Argument[], R, G extends Answerer = 'adapter', C extends boolean = false>(
  options: MethodOptions<A, R, G, C>,
): MethodDeclaration<A, R, G, C> {
  const names = options.args.flatMap((declared) => [declared.name, ...declared.aliases]);
  assert.equal(new Set(names).size, names.length, `argument names repeat in ${names.join(', ')}`);
  assert.ok(options.args.filter((declared) => declared.kind === 'params').length <= 1, 'at most one params argument');
  const firstOptional = options.args.findIndex((declared) => declared.optional);
  assert.ok(firstOptional === -1 || options.args.slice(firstOptional).every((declared) => declared.optional), 'optional arguments come last');
  if (options.verbs.includes('GET')) {
    assert.ok(
      options.args.every((declared) => queryKinds.has(declared.kind)),
      'a method with list arguments cannot be called with GET',
    );
  }
  assert.ok(options.verbs.includes('POST'), 'every method accepts POST');
  return {
    catalog: false as C,
    credentials: false,
    archive: false,
    answeredBy: 'adapter' as G,
    ...options,
  };
}

/** Positional parameters of a declaration, optional ones optional. */
export type ArgumentsOf<A extends readonly unknown[]> = A extends readonly [infer Head, ...infer Rest]
  ? Head extends Argument<infer T, true>
    ? [argument?: T, ...ArgumentsOf<Rest>]
    : Head extends Argument<infer T, false>
      ? [argument: T, ...ArgumentsOf<Rest>]
      : never
  : [];

export type ResultOf<D> = D extends MethodDeclaration<readonly Argument[], infer R, Answerer, boolean> ? R : never;
