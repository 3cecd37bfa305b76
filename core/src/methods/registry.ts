import type Joi from 'joi';
import { PredgateError } from '../errors.js';
import type { Credentials } from '../model/index.js';
import { credentialsSchema } from '../model/index.js';
import { compiledCheckOf } from './compiled-check.js';
import type { Answerer, Argument, MethodDeclaration } from './declaration.js';
import { coreMethods } from './method-list.js';

/** Any list of method declarations; the core list is one, tests declare others. */
export type MethodList = Readonly<Record<string, MethodDeclaration<readonly Argument[], unknown, Answerer>>>;

export type QueryInput = Record<string, string | string[] | undefined>;

export interface CallInput {
  /** Positional arguments in declared order, validated and converted. */
  args: unknown[];
  credentials?: Credentials;
}

/** A method as the server routes it: its declaration plus the ways a call can arrive. */
export interface RoutedMethod {
  readonly name: string;
  readonly declaration: MethodDeclaration<readonly Argument[], unknown, Answerer>;
  readonly allowsGet: boolean;
  /** Arguments from a query string: each argument under its own key, the rest into the params object. */
  fromQuery(query: QueryInput): CallInput;
  /** Arguments from a POST body: `{args}`, `{kwargs}` or a flat object of named arguments, each with optional `credentials`. */
  fromBody(body: unknown): CallInput;
}

export interface MethodRegistry {
  readonly names: readonly string[];
  get(name: string): RoutedMethod | undefined;
}

export function createMethodRegistry(list: MethodList = coreMethods): MethodRegistry {
  const methods = new Map<string, RoutedMethod>();
  for (const [name, declaration] of Object.entries(list)) {
    methods.set(name, routeMethod(name, declaration));
  }
  return {
    names: [...methods.keys()],
    get: (name) => methods.get(name),
  };
}

function routeMethod(name: string, declaration: RoutedMethod['declaration']): RoutedMethod {
  const args = declaration.args;
  const paramsIndex = args.findIndex((declared) => declared.kind === 'params');

  const invalid = (message: string, detail: Record<string, unknown> = {}) =>
    new PredgateError('VALIDATION_ERROR', `${name}: ${message}`, { detail: { method: name, ...detail } });

  /** Named arguments to positions: declared names and aliases first, everything else into the params object. */
  const fromNamed = (named: Record<string, unknown>): unknown[] => {
    const rest = { ...named };
    const positional: unknown[] = new Array(args.length).fill(undefined);
    args.forEach((declared, index) => {
      if (index === paramsIndex) return;
      const keys = [declared.name, ...declared.aliases].filter((key) => Object.hasOwn(rest, key));
      if (keys.length > 1) throw invalid(`"${keys.join('" and "')}" name the same argument`, { argument: declared.name });
      const [key] = keys;
      if (key === undefined) return;
      positional[index] = rest[key];
      delete rest[key];
    });
    const leftover = Object.keys(rest);
    if (paramsIndex >= 0) {
      const paramsName = args[paramsIndex]!.name;
      // `{params: {...}}` names the object itself rather than its members.
      const nested = leftover.length === 1 && leftover[0] === paramsName && isPlainObject(rest[paramsName]);
      positional[paramsIndex] = nested ? rest[paramsName] : leftover.length > 0 ? rest : undefined;
    } else if (leftover.length > 0) {
      throw invalid(`unknown argument${leftover.length > 1 ? 's' : ''} "${leftover.join('", "')}"`, {
        argument: leftover[0],
        rule: 'any.unknown',
      });
    }
    return positional;
  };

  const validate = (raw: unknown[]): unknown[] => {
    if (raw.length > args.length) {
      throw invalid(`takes at most ${args.length} argument${args.length === 1 ? '' : 's'}, got ${raw.length}`, {
        rule: 'array.max',
      });
    }
    const values = args.map((declared, index) => {
      const value = raw[index];
      if (value === undefined || value === null) {
        if (declared.optional) return undefined;
        throw invalid(`"${declared.name}" is required`, { argument: declared.name, rule: 'any.required' });
      }
      return validateArgument(declared, value);
    });
    while (values.length > 0 && values[values.length - 1] === undefined) values.pop();
    return values;
  };

  const validateArgument = (declared: Argument, value: unknown): unknown => {
    // Most calls fit as they come: the compiled check says so in a few µs, and joi (converting, or saying what is wrong) runs on the rest.
    if (compiledCheckOf(declared.schema, 'arguments')?.(value)) return value;
    const { error, value: converted } = declared.schema.validate(value, {
      convert: true,
      abortEarly: true,
      errors: { label: false },
    });
    if (!error) return converted;
    const [first] = error.details;
    const path = [declared.name, ...(first?.path ?? [])].join('.');
    throw invalid(`"${path}" ${first?.message ?? error.message}`, {
      argument: declared.name,
      path,
      rule: first?.type,
    });
  };

  const readCredentials = (value: unknown): Credentials | undefined => {
    if (value === undefined || value === null) return undefined;
    const { error, value: credentials } = credentialsSchema.validate(value, { convert: false });
    if (error) {
      // The offending value is never echoed: it may be a secret.
      const member = error.details[0]?.path.join('.');
      throw invalid(`"${member ? `credentials.${member}` : 'credentials'}" is invalid`, {
        argument: 'credentials',
        rule: error.details[0]?.type,
      });
    }
    return credentials as Credentials;
  };

  return {
    name,
    declaration,
    allowsGet: declaration.verbs.includes('GET'),

    fromQuery(query) {
      const named: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(query)) {
        if (value !== undefined) named[key] = value;
      }
      const positional = fromNamed(named);
      return { args: validate(positional.map((value, index) => parseQueryArgument(args[index]!, value, invalid))) };
    },

    fromBody(body) {
      if (!isPlainObject(body)) throw invalid('the body must be a JSON object', { rule: 'object.base' });
      const { credentials, ...members } = body;
      let positional: unknown[];
      if (Object.hasOwn(members, 'args')) {
        const { args: given, ...others } = members;
        rejectOthers(others, 'args');
        if (!Array.isArray(given)) throw invalid('"args" must be an array', { argument: 'args', rule: 'array.base' });
        const list = declaration.legacyArgs ? declaration.legacyArgs(given) : given;
        positional = takesNamedObject(list) ? fromNamed(list[0] as Record<string, unknown>) : list;
      } else if (Object.hasOwn(members, 'kwargs')) {
        const { kwargs, ...others } = members;
        rejectOthers(others, 'kwargs');
        if (!isPlainObject(kwargs)) throw invalid('"kwargs" must be an object', { argument: 'kwargs', rule: 'object.base' });
        positional = fromNamed(kwargs);
      } else {
        positional = fromNamed(members);
      }
      return { args: validate(positional), credentials: readCredentials(credentials) };
    },
  };

  function rejectOthers(others: Record<string, unknown>, form: string): void {
    const keys = Object.keys(others);
    if (keys.length > 0) {
      throw invalid(`"${keys[0]}" is not allowed next to "${form}"`, { argument: keys[0], rule: 'object.unknown' });
    }
  }

  /** `args: [{...}]` is an object of named arguments when the first argument is not itself an object. */
  function takesNamedObject(list: unknown[]): boolean {
    const first = args[0];
    return list.length === 1 && isPlainObject(list[0]) && first !== undefined && first.kind !== 'params' && first.kind !== 'object' && first.kind !== 'list';
  }
}

/**
 * Query values are text. Structured values (an object argument, or an object
 * member of the params object such as `filter`) arrive as JSON text; the rest
 * is converted by the argument's schema.
 */
function parseQueryArgument(declared: Argument, value: unknown, invalid: Invalid): unknown {
  if (value === undefined) return undefined;
  if (declared.kind === 'object') return parseJsonText(value, declared.name, invalid);
  if (declared.kind !== 'params' || !isPlainObject(value)) return value;
  const parsed: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const type = memberType(declared.schema, key);
    const structured = type === 'object' || (type === 'array' && isJsonArrayText(member));
    parsed[key] = structured ? parseJsonText(member, `${declared.name}.${key}`, invalid) : member;
  }
  return parsed;
}

function memberType(schema: Joi.Schema, key: string): string | undefined {
  try {
    return (schema.extract(key) as Joi.Schema).type;
  } catch {
    return undefined;
  }
}

function isJsonArrayText(value: unknown): boolean {
  return typeof value === 'string' && value.trimStart().startsWith('[');
}

function parseJsonText(value: unknown, path: string, invalid: Invalid): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw invalid(`"${path}" must be JSON text`, { argument: path.split('.')[0], path, rule: 'json.parse' });
  }
}

type Invalid = (message: string, detail?: Record<string, unknown>) => PredgateError;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
