import type Joi from 'joi';

/**
 * JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it) from a joi schema's
 * `describe()`: the small mapping over the few joi features the method list
 * and the unified model use. A joi feature with no JSON Schema equivalent
 * (custom rules, references between keys) is left out rather than guessed,
 * so the document never claims a bound joi does not enforce.
 */
export type JsonSchema = Record<string, unknown>;

interface Description {
  type: string;
  flags?: { presence?: string; only?: boolean; description?: string; default?: unknown; unknown?: boolean; single?: boolean };
  allow?: unknown[];
  rules?: Array<{ name: string; args?: Record<string, unknown> }>;
  keys?: Record<string, Description>;
  items?: Description[];
  matches?: Array<{ schema?: Description }>;
  patterns?: Array<{ schema?: Description; rule?: Description }>;
  metas?: unknown[];
}

export function toJsonSchema(schema: Joi.Schema): JsonSchema {
  return convert(schema.describe() as Description);
}

function convert(description: Description): JsonSchema {
  const base = convertType(description);
  const allowed = description.allow ?? [];
  const values = allowed.filter((value) => value !== null && value !== '');
  let result: JsonSchema = base;
  if (description.flags?.only && values.length > 0) result = { ...withoutType(base), type: base.type, enum: values };
  if (description.flags?.description) result.description = description.flags.description;
  if (description.flags?.default !== undefined && typeof description.flags.default !== 'object') result.default = description.flags.default;
  if (allowed.includes(null)) result = nullable(result);
  return result;
}

function convertType(description: Description): JsonSchema {
  const rules = description.rules ?? [];
  const limit = (name: string) => {
    const value = rules.find((rule) => rule.name === name)?.args?.limit;
    return typeof value === 'number' ? value : undefined;
  };
  switch (description.type) {
    case 'string': {
      const pattern = rules.find((rule) => rule.name === 'pattern')?.args?.regex;
      const isoDate = rules.some((rule) => rule.name === 'isoDate');
      const uri = rules.some((rule) => rule.name === 'uri');
      const guid = rules.some((rule) => rule.name === 'guid');
      return compact({
        type: 'string',
        minLength: limit('min'),
        maxLength: limit('max'),
        pattern: typeof pattern === 'string' ? pattern.replace(/^\/(.*)\/[a-z]*$/, '$1') : undefined,
        format: isoDate ? 'date-time' : uri ? 'uri' : guid ? 'uuid' : undefined,
      });
    }
    case 'number': {
      const integer = rules.some((rule) => rule.name === 'integer');
      return compact({
        type: integer ? 'integer' : 'number',
        minimum: limit('min'),
        maximum: limit('max'),
        exclusiveMinimum: limit('greater'),
        exclusiveMaximum: limit('less'),
      });
    }
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date-time' };
    case 'array': {
      const [item] = description.items ?? [];
      const array = compact({ type: 'array', items: item ? convert(item) : {}, minItems: limit('min'), maxItems: limit('max') });
      // `.single()`: one value is accepted where a list is expected.
      return description.flags?.single && item ? { anyOf: [array, convert(item)] } : array;
    }
    case 'object': {
      const keys = description.keys ?? {};
      const properties = Object.fromEntries(Object.entries(keys).map(([key, value]) => [key, convert(value)]));
      const required = Object.entries(keys)
        .filter(([, value]) => value.flags?.presence === 'required')
        .map(([key]) => key);
      const pattern = description.patterns?.[0]?.rule;
      return compact({
        type: 'object',
        properties: Object.keys(properties).length > 0 ? properties : undefined,
        required: required.length > 0 ? required : undefined,
        additionalProperties: pattern ? convert(pattern) : description.keys === undefined || description.flags?.unknown === true ? undefined : false,
      });
    }
    case 'alternatives': {
      const options = (description.matches ?? []).flatMap((match) => (match.schema ? [convert(match.schema)] : []));
      return options.length === 1 ? options[0]! : { anyOf: options };
    }
    case 'function':
      return {};
    default:
      return {};
  }
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

function withoutType(schema: JsonSchema): JsonSchema {
  const { type: _type, ...rest } = schema;
  return rest;
}

function compact(record: Record<string, unknown>): JsonSchema {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
