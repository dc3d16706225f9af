import { expect, test, type Page } from '@playwright/test';
import { ROOT, loginViaApi } from './helpers';
import { STAND_IN_URL } from './support/stand-in-config';

declare global {
  interface Window {
    cspViolations?: string[];
  }
}

/** Records every Content-Security-Policy violation of the page (from its first script on) and console report. */
async function watchViolations(page: Page): Promise<string[]> {
  const reported: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) reported.push(message.text());
  });
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations?.push(
        `${event.effectiveDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      );
    });
  });
  return reported;
}

async function violationsOf(page: Page, reported: string[]): Promise<string[]> {
  return [...reported, ...((await page.evaluate(() => window.cspViolations)) ?? [])];
}

async function setOption(page: Page, key: string, value: string): Promise<void> {
  const response = await page.request.put('/api/option/', { data: { key, value } });
  const body = (await response.json()) as { success: boolean; message: string };
  expect(body.success, body.message).toBe(true);
}

test('the console pages load under their Content-Security-Policy without a single violation', async ({
  page,
}) => {
  const reported = await watchViolations(page);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  expect(await violationsOf(page, reported)).toEqual([]);

  await loginViaApi(page, ROOT);
  const pages: Array<[string, RegExp]> = [
    ['/', /Gatehouse/],
    ['/token', /Keys|Tokens/i],
    ['/channel', /Channels/i],
    ['/log', /Logs/i],
    ['/playground', /Playground/],
    ['/setting', /Settings/i],
    ['/user/edit', /Username/i],
  ];
  for (const [url, text] of pages) {
    await page.goto(url);
    // The menu labels are hidden below 1408 px: look for the text where it shows.
    await expect(page.getByText(text).filter({ visible: true }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await violationsOf(page, reported), url).toEqual([]);
  }

  // An operator's framed chat page, on another origin, is allowed by frame-src once it is configured.
  await setOption(page, 'ChatLink', `${STAND_IN_URL}/health`);
  try {
    await page.goto('/chat');
    await expect(page.locator('iframe')).toHaveAttribute('src', `${STAND_IN_URL}/health`);
    await page.waitForLoadState('networkidle');
    expect(await violationsOf(page, reported), '/chat').toEqual([]);
  } finally {
    await setOption(page, 'ChatLink', '');
  }

  // The watch itself works: an injected inline script is refused and reported.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.head.append(script);
  });
  await expect.poll(async () => (await violationsOf(page, reported)).join('\n')).toContain('script-src');
});
