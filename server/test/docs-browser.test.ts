import { existsSync, mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

// A real browser is a system package (Debian's `chromium`), installed by CI; where it is missing the test says so and is skipped.
const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
if (!executablePath) console.warn('docs browser test skipped: no chromium on this machine (apt-get install chromium)');
const screenshot = new URL('../../test/results/docs-reference.png', import.meta.url).pathname;

describe.skipIf(!executablePath)('the API reference in a real browser', () => {
  let app: TestApp;
  let browser: Browser;
  let origin: string;
  beforeAll(async () => {
    app = await testApp({ config: { port: 0, host: '127.0.0.1' } });
    await app.server.start();
    origin = app.server.info.uri;
    browser = await chromium.launch({ executablePath: executablePath!, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test('renders the operations, and "try it" with the API key calls the mock venue', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    await page.goto(`${origin}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    expect(await page.locator('.opblock-summary-path', { hasText: '/api/{exchange}/fetchEvents' }).count()).toBeGreaterThan(0);

    // Authorize with the key, as a reader would in the page's dialog.
    await page
      .getByRole('button', { name: /authorize/i })
      .first()
      .click();
    await page.locator('.modal-ux input').first().fill(apiKey);
    await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
    await page.locator('.modal-ux .auth-btn-wrapper button.btn-done').click();

    const operation = page.locator('#operations-Market_data-getFetchEvents');
    await operation.locator('.opblock-summary').click();
    // The docs open with "try it out" on, so the parameters are editable at once: no button to press (and
    // none to wait for until a timeout). The venue is a list when the spec names the venues, else a text field.
    const exchange = operation.locator('tr[data-param-name="exchange"]');
    await exchange.locator('select, input').first().waitFor();
    const venues = exchange.locator('select');
    if ((await venues.count()) > 0) await venues.selectOption('mock');
    else await exchange.locator('input').fill('mock');
    await operation.locator('tr[data-param-name="limit"] input').fill('2');
    const sent: string[] = [];
    page.on('request', (request) => sent.push(request.url()));
    await operation.getByRole('button', { name: /execute/i }).click();
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: 30_000 });
    const answer = await operation.locator('.live-responses-table .microlight').first().innerText();
    expect((await status.innerText()).trim(), `${sent.join(' ')} ${answer}`).toBe('200');
    expect(await operation.locator('.live-responses-table .microlight').first().innerText()).toContain('"success": true');

    mkdirSync(new URL('.', `file://${screenshot}`).pathname, { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: false });
  }, 90_000);
});
