import { describe, expect, test } from 'vitest';
import { UrlGuard } from './url-guard.js';

const lookup = (guard: UrlGuard, host: string) =>
  new Promise<{ error?: Error; address?: string }>((resolve) =>
    guard.lookup(host, {}, (error, address) => resolve(error ? { error } : { address: address as string })),
  );

describe('UrlGuard', () => {
  test('a name is resolved and every address checked before a connection uses it', async () => {
    const strict = new UrlGuard({ allowHttp: false, allowedNetworks: [] });
    expect((await lookup(strict, 'localhost')).error?.message).toMatch(/localhost resolves to .*private or reserved/);
    await expect(strict.checkReceiver('https://localhost/hook')).rejects.toThrow(/private or reserved/);
    const allowing = new UrlGuard({ allowHttp: true, allowedNetworks: ['127.0.0.0/8', '::1'] });
    expect(['127.0.0.1', '::1']).toContain((await lookup(allowing, 'localhost')).address);
    await expect(allowing.checkReceiver('http://localhost:1/hook')).resolves.toBeInstanceOf(URL);
  });

  test('addresses in special-purpose ranges are refused, public ones pass', () => {
    const guard = new UrlGuard({ allowHttp: false, allowedNetworks: ['10.0.0.5'] });
    for (const address of ['0.0.0.0', '100.64.0.1', '172.16.5.5', '198.18.0.1', '224.0.0.1', 'fd00::1', '::ffff:127.0.0.1']) {
      expect(() => guard.checkAddress(address), address).toThrow(/private or reserved/);
    }
    for (const address of ['10.0.0.5', '93.184.216.34', '2606:4700::1111']) expect(() => guard.checkAddress(address), address).not.toThrow();
    expect(() => guard.checkUrl('http://93.184.216.34/')).toThrow(/must use https/);
  });
});
