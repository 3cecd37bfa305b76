import { afterEach, describe, expect, test } from 'vitest';
import { testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const responseLines = (logs: string[]) => logs.filter((line) => line.includes('[response]'));

describe('request logging', () => {
  test('at the default level a successful request writes no line, a failed one writes one', async () => {
    app = await testApp({ logLevel: 'info' });
    expect((await app.call({ url: '/api/mock/fetchEvents?limit=1' })).statusCode).toBe(200);
    expect(responseLines(app.logs)).toEqual([]);
    expect((await app.call({ url: '/api/mock/noSuchMethod' })).statusCode).toBe(404);
    expect(responseLines(app.logs)).toHaveLength(1);
    expect(responseLines(app.logs)[0]).toContain('404');
  });

  test('at LOG_LEVEL=debug every request writes one structured line, without its API key', async () => {
    app = await testApp({ logLevel: 'debug' });
    await app.call({ url: '/api/mock/fetchEvents?limit=1' });
    const [line] = responseLines(app.logs);
    expect(JSON.parse(line!)).toMatchObject({ method: 'get', path: '/api/mock/fetchEvents', res: { statusCode: 200 } });
    expect(line).not.toContain('test-key');
  });
});
