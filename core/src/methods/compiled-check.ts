import type Joi from 'joi';

/**
 * A plain function compiled once from a joi schema's `describe()` that says
 * whether a value certainly fits the schema, as joi would judge it with
 * `convert: false`. Joi walks its schema objects, preferences and error
 * machinery per value (about 200 µs for a 12 KB event); this walks the value
 * only (a few µs). It is a fast "yes": it never says yes where joi would say
 * no, but it may say no where joi says yes (it is stricter on a few edges,
 * such as unknown keys whose value is undefined), so a "no" goes to joi for
 * the verdict and the details. A member or alternative using a joi feature
 * not read here (custom rules, references, URIs, ...) is never passed when
 * present; a schema whose root uses one, or whose members may change
 * presence (conditions, defaults), compiles to undefined: joi alone checks it.
 */
export type CompiledCheck = (value: unknown) => boolean;

/**
 * `answers`: joi with `convert: false` (an answer is only accepted or
 * refused). `arguments`: also a value joi with `convert: true` returns
 * unchanged, so a "yes" lets the value through as it came; the only
 * difference is in alternatives, where joi converts to the first option
 * that fits, so only the first option's "yes" counts. `payloads`: as
 * `answers`, with unknown members allowed (`allowUnknown`, as venue answers
 * are checked: only what the adapter reads is declared).
 */
export type CheckMode = 'answers' | 'arguments' | 'payloads';

/**
 * Custom rules a check can read, by the description given to joi's
 * `custom(method, description)`: each a predicate that passes exactly the
 * values the rule returns unchanged (the payload kit's numeric readers).
 */
const customRules = new Map<string, CompiledCheck>();

/** Lets compiled checks read schemas using the custom rule described `description`; `passes` must never pass a value the rule refuses. */
export function compiledCustomRule(description: string, passes: CompiledCheck): void {
  customRules.set(description, passes);
}

interface Description {
  type: string;
  flags?: Record<string, unknown>;
  allow?: unknown[];
  rules?: Array<{ name: string; args?: Record<string, unknown> }>;
  keys?: Record<string, Description>;
  items?: Description[];
  ordered?: Description[];
  matches?: Array<{ schema?: Description } & Record<string, unknown>>;
  patterns?: Array<{ schema?: Description; rule?: Description } & Record<string, unknown>>;
  metas?: unknown[];
  preferences?: Record<string, unknown>;
  renames?: Array<{ from: unknown }>;
  dependencies?: Array<{ rel: string; key?: string | null; peers: string[] }>;
}

const compiled: Record<CheckMode, WeakMap<Joi.Schema, CompiledCheck | null>> = { answers: new WeakMap(), arguments: new WeakMap(), payloads: new WeakMap() };

/** The schema's compiled check, made on first use; undefined when the schema uses a feature it does not read. */
export function compiledCheckOf(schema: Joi.Schema, mode: CheckMode = 'answers'): CompiledCheck | undefined {
  let check = compiled[mode].get(schema);
  if (check === undefined) {
    check = compile(schema.describe() as Description, mode) ?? null;
    compiled[mode].set(schema, check);
  }
  return check ?? undefined;
}

/** Thrown inside `compile` for a feature it does not read. */
class Unsupported extends Error {}

function compile(description: Description, mode: CheckMode): CompiledCheck | undefined {
  try {
    return node(description, mode);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/** Never passes: the check of a present member whose schema uses a feature not read here (joi judges it). */
const neverPasses: CompiledCheck = () => false;

/**
 * A member's check: its own, or, when its schema uses a feature not read
 * here, one that never passes a present value. An absent member is then
 * judged by its presence alone, so a schema whose absence can mean more
 * (a default, a condition) stays unsupported.
 */
function memberNode(description: Description, mode: CheckMode): CompiledCheck {
  try {
    return node(description, mode);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    const presence = description.flags?.presence;
    const absenceIsPlain = (presence === undefined || presence === 'required' || presence === 'optional') && description.flags?.default === undefined;
    if (!absenceIsPlain || 'whens' in description) throw error;
    return neverPasses;
  }
}

/** Members of a description this compiler reads (documentation members change nothing). */
const readMembers = new Set([
  'type',
  'flags',
  'allow',
  'rules',
  'keys',
  'items',
  'ordered',
  'matches',
  'patterns',
  'metas',
  'preferences',
  'renames',
  'dependencies',
]);
/** Flags that change nothing a check with `convert: false` sees, beside the ones each type reads. */
const inertFlags = new Set(['presence', 'description', 'label']);

/** A check of a value present (not undefined); presence is the parent's business. */
function node(description: Description, mode: CheckMode): CompiledCheck {
  for (const member of Object.keys(description)) if (!readMembers.has(member)) throw new Unsupported(member);
  // Messages change only what joi says of a value it refuses, which a "no" leaves to joi.
  if (Object.keys(description.preferences ?? {}).some((preference) => preference !== 'messages')) throw new Unsupported('preferences');
  const flags = description.flags ?? {};
  const presence = flags.presence;
  if (presence !== undefined && presence !== 'required' && presence !== 'optional') throw new Unsupported(`presence ${String(presence)}`);
  const allowed = description.allow ?? [];
  if (allowed.some((value) => value !== null && typeof value === 'object')) throw new Unsupported('allowed object');
  const typed = typeCheck(description, mode);
  const checkFlags = (known: string[]) => {
    for (const flag of Object.keys(flags)) if (!inertFlags.has(flag) && !known.includes(flag)) throw new Unsupported(`flag ${flag}`);
  };
  checkFlags(typed.flags);
  if (flags.only === true) {
    const only = new Set(allowed);
    return (value) => only.has(value);
  }
  if (allowed.length === 0) return typed.check;
  const allow = new Set(allowed);
  const check = typed.check;
  return (value) => allow.has(value) || check(value);
}

function typeCheck(description: Description, mode: CheckMode): { check: CompiledCheck; flags: string[] } {
  const rules = description.rules ?? [];
  const flags = description.flags ?? {};
  switch (description.type) {
    case 'any': {
      // Only a rule named for one of the custom rules registered here: their checks, all of them.
      const checks = rules.map((rule) => {
        const known = rule.name === 'custom' && typeof rule.args?.description === 'string' ? customRules.get(rule.args.description) : undefined;
        if (!known) throw new Unsupported(`rule ${rule.name}`);
        return known;
      });
      return { check: (value) => checks.every((check) => check(value)), flags: [] };
    }
    case 'boolean':
      requireNoRules(rules, []);
      return { check: (value) => typeof value === 'boolean', flags: [] };
    case 'number': {
      const check = numberCheck(rules, flags.unsafe === true);
      // Converting, joi turns -0 into 0: an argument of -0 is left to joi.
      return { check: mode === 'arguments' ? (value) => !Object.is(value, -0) && check(value) : check, flags: ['unsafe', 'only'] };
    }
    case 'string':
      return { check: stringCheck(rules), flags: ['only'] };
    case 'array': {
      requireNoRules(rules, []);
      const items = description.items ?? [];
      if (items.length > 1) throw new Unsupported('several item types');
      const item = items[0];
      if (item && item.flags?.presence === 'required') throw new Unsupported('required item');
      const each = item ? memberNode(item, mode) : undefined;
      if (description.ordered) {
        // A tuple (`ordered`): each position its own schema, nothing past the last.
        if (item) throw new Unsupported('ordered with items');
        return { check: tupleCheck(description.ordered, mode), flags: ['single'] };
      }
      return {
        check: (value) => {
          if (!Array.isArray(value)) return false;
          // A hole or undefined item is an error to joi unless sparse: refused here, left to joi.
          for (let index = 0; index < value.length; index += 1) if (value[index] === undefined || (each && !each(value[index]))) return false;
          return true;
        },
        // `single` lets joi wrap a lone item in an array: the check passes arrays only, which joi keeps as they are.
        flags: ['single'],
      };
    }
    case 'object':
      requireNoRules(rules, []);
      return { check: objectCheck(description, mode), flags: ['unknown'] };
    case 'alternatives': {
      requireNoRules(rules, []);
      if (flags.match !== undefined) throw new Unsupported('match mode');
      const options = (description.matches ?? []).map((match) => {
        if (!match.schema || Object.keys(match).length !== 1) throw new Unsupported('conditional alternative');
        return memberNode(match.schema, mode);
      });
      if (options.every((option) => option === neverPasses)) throw new Unsupported('no alternative read');
      const first = options[0]!;
      return { check: mode === 'arguments' ? first : (value) => options.some((option) => option(value)), flags: [] };
    }
    default:
      throw new Unsupported(description.type);
  }
}

function tupleCheck(ordered: Description[], mode: CheckMode): CompiledCheck {
  const positions = ordered.map((position) => ({ required: position.flags?.presence === 'required', check: memberNode(position, mode) }));
  return (value) => {
    if (!Array.isArray(value) || value.length > positions.length) return false;
    return positions.every((position, index) => (index < value.length && value[index] !== undefined ? position.check(value[index]) : !position.required));
  };
}

function requireNoRules(rules: NonNullable<Description['rules']>, known: string[]): void {
  for (const rule of rules) if (!known.includes(rule.name)) throw new Unsupported(`rule ${rule.name}`);
}

function limitOf(rule: { args?: Record<string, unknown> }): number {
  const limit = rule.args?.limit;
  if (typeof limit !== 'number') throw new Unsupported('limit not a number');
  return limit;
}

function numberCheck(rules: NonNullable<Description['rules']>, unsafe: boolean): CompiledCheck {
  requireNoRules(rules, ['min', 'max', 'greater', 'less', 'integer']);
  let low = -Infinity;
  let high = Infinity;
  let above = -Infinity;
  let below = Infinity;
  let integer = false;
  for (const rule of rules) {
    if (rule.name === 'integer') integer = true;
    else if (rule.name === 'min') low = Math.max(low, limitOf(rule));
    else if (rule.name === 'max') high = Math.min(high, limitOf(rule));
    else if (rule.name === 'greater') above = Math.max(above, limitOf(rule));
    else below = Math.min(below, limitOf(rule));
  }
  const safeLow = unsafe ? -Infinity : Number.MIN_SAFE_INTEGER;
  const safeHigh = unsafe ? Infinity : Number.MAX_SAFE_INTEGER;
  return (value) =>
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= safeLow &&
    value <= safeHigh &&
    value >= low &&
    value <= high &&
    value > above &&
    value < below &&
    (!integer || Number.isInteger(value));
}

/**
 * ISO 8601 as `toISOString` and most venues write it (date, `T`, time with
 * seconds, optional fraction, `Z` or `±hh:mm`): a subset of what joi's
 * `isoDate` takes; joi then also needs `new Date` to read it.
 */
const isoDateTime = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

function stringCheck(rules: NonNullable<Description['rules']>): CompiledCheck {
  for (const rule of rules) if (rule.args?.encoding !== undefined) throw new Unsupported('length encoding');
  requireNoRules(rules, ['min', 'max', 'isoDate']);
  let shortest = 0;
  let longest = Infinity;
  let isoDate = false;
  for (const rule of rules) {
    if (rule.name === 'isoDate') isoDate = true;
    else if (rule.name === 'min') shortest = Math.max(shortest, limitOf(rule));
    else longest = Math.min(longest, limitOf(rule));
  }
  // joi refuses '' unless allowed (an allowed '' is accepted before this check runs).
  shortest = Math.max(shortest, 1);
  return (value) =>
    typeof value === 'string' &&
    value.length >= shortest &&
    value.length <= longest &&
    // Date.parse reads a string as `new Date` does, without making a Date.
    (!isoDate || (isoDateTime.test(value) && !Number.isNaN(Date.parse(value))));
}

function objectCheck(description: Description, mode: CheckMode): CompiledCheck {
  // A schema's own `unknown(false)` wins over the payload check's `allowUnknown`, as in joi.
  const unknown = description.flags?.unknown === true || (mode === 'payloads' && description.flags?.unknown !== false);
  const declared = description.keys;
  const keys = Object.entries(declared ?? {}).map(([key, child]) => ({ key, required: child.flags?.presence === 'required', check: memberNode(child, mode) }));
  // A renamed member (`exchange` for `sourceExchange`) is left to joi, which moves it.
  const renamed = (description.renames ?? []).map((rename) => {
    if (typeof rename.from !== 'string') throw new Unsupported('rename pattern');
    return rename.from;
  });
  // `with` (a member needs its peers) and `or` (one of the peers at least): other dependencies are left to joi.
  const together: Array<{ key: string; peers: string[] }> = [];
  const oneOf: string[][] = [];
  for (const dependency of description.dependencies ?? []) {
    if (dependency.rel === 'with' && typeof dependency.key === 'string') together.push({ key: dependency.key, peers: dependency.peers });
    else if (dependency.rel === 'or' && (dependency.key ?? null) === null) oneOf.push(dependency.peers);
    else throw new Unsupported(`dependency ${dependency.rel}`);
  }
  const known = new Set(keys.map((key) => key.key));
  const patterns = description.patterns ?? [];
  if (patterns.length > 1) throw new Unsupported('several patterns');
  const pattern = patterns[0];
  let patternCheck: { key: CompiledCheck; value: CompiledCheck } | undefined;
  if (pattern) {
    if (!pattern.schema || !pattern.rule || Object.keys(pattern).length !== 2) throw new Unsupported('pattern form');
    patternCheck = { key: node(pattern.schema, mode), value: node(pattern.rule, mode) };
  }
  // Without declared keys or with `unknown`, other keys pass unchecked (unless a pattern checks them).
  const othersAllowed = declared === undefined || unknown;
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    for (const from of renamed) if (record[from] !== undefined) return false;
    for (const { key, peers } of together) if (record[key] !== undefined && peers.some((peer) => record[peer] === undefined)) return false;
    for (const peers of oneOf) if (peers.every((peer) => record[peer] === undefined)) return false;
    for (const key of keys) {
      const member = record[key.key];
      if (member === undefined) {
        if (key.required) return false;
      } else if (!key.check(member)) return false;
    }
    if (patternCheck || !othersAllowed) {
      // for-in makes no array of names (a sweep checks every object of every event). It also visits inherited
      // enumerable names, which can only turn a "yes" into a "no" that joi then judges.
      for (const name in record) {
        if (known.has(name)) continue;
        if (patternCheck) {
          if (!patternCheck.key(name) || !patternCheck.value(record[name])) return false;
        } else return false;
      }
    }
    return true;
  };
}
