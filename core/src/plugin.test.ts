import Joi from 'joi';
import { describe, expect, test } from 'vitest';
import { AdapterPluginError, coreVersion, readAdapterConfig, validateAdapterPlugin } from './plugin.js';

const valid = { id: 'acme', version: '1.2.3', coreRange: '^0.1.0', displayName: 'Acme', create: () => ({}) };

describe('validateAdapterPlugin', () => {
  test('accepts a well-formed plugin that fits the running core', () => {
    expect(validateAdapterPlugin(valid, '@acme/adapter', '0.1.4')).toBe(valid);
  });

  test('accepts the secret headers it declares', () => {
    expect(validateAdapterPlugin({ ...valid, secretHeaders: ['lmts-signature', 'POLY_API_KEY'] }, '@acme/adapter', '0.1.4').secretHeaders).toEqual([
      'lmts-signature',
      'POLY_API_KEY',
    ]);
  });

  test('the running core version is read from its package', () => {
    expect(coreVersion).toMatch(/^\d+\.\d+\.\d+/);
  });

  test.each([
    ['a module that exports nothing useful', undefined, '@acme/adapter: invalid adapter plugin: "value" is required'],
    ['a missing factory', { ...valid, create: undefined }, '"create" is required'],
    ['a factory that is not a function', { ...valid, create: 'new Acme()' }, '"create" must be of type function'],
    ['a version that is not semver', { ...valid, version: 'latest' }, '"version" must be a semver version, got "latest"'],
    ['a core range that is not a range', { ...valid, coreRange: 'soon' }, '"coreRange" must be a semver range, got "soon"'],
    ['an id with capitals', { ...valid, id: 'Acme' }, '"id" with value "Acme" fails to match the venue id'],
    ['the reserved id router', { ...valid, id: 'router' }, '"id" contains an invalid value'],
    ['a claim to span venues, which only the Router does', { ...valid, spansVenues: true }, 'only the gateway’s Router spans venues'],
    [
      'a secret header that is not a header name',
      { ...valid, secretHeaders: ['x sig'] },
      '"secretHeaders[0]" with value "x sig" fails to match the header name',
    ],
  ])('rejects %s with a message naming the package and the field', (_title, candidate, message) => {
    expect(() => validateAdapterPlugin(candidate, '@acme/adapter', '0.1.4')).toThrow(AdapterPluginError);
    expect(() => validateAdapterPlugin(candidate, '@acme/adapter', '0.1.4')).toThrow(message);
  });

  test('rejects a plugin built for another core, naming both versions', () => {
    expect(() => validateAdapterPlugin({ ...valid, coreRange: '^2.0.0' }, '@acme/adapter', '0.1.4')).toThrow(
      '@acme/adapter: needs @predgate/core ^2.0.0, but the running core is 0.1.4',
    );
  });
});

describe('readAdapterConfig', () => {
  const schema = Joi.object({ pageSize: Joi.number().integer().max(500).default(100) });

  test('applies defaults', () => {
    expect(readAdapterConfig(schema, {}, 'acme')).toEqual({ pageSize: 100 });
  });

  test('names the bad field', () => {
    expect(() => readAdapterConfig(schema, { pageSize: 9000 }, 'acme')).toThrow(
      'acme: invalid adapter configuration: "pageSize" must be less than or equal to 500',
    );
  });
});
