import { expect, test } from '@playwright/test';
import { createUser, expectToast, loginViaApi } from './helpers';

interface KeyRow {
  name: string;
  key: string;
  status: number;
  expired_time: number;
}

test('a user creates a key with the 1-day quick expiry, copies it and disables it', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await loginViaApi(page, await createUser(request, 'key'));

  await page.goto('/token/add');
  await expect(page.getByLabel('Remaining quota')).toHaveValue('500,000');
  await page.getByLabel(/^Name/).fill('laptop');
  await page.getByRole('button', { name: '1 day', exact: true }).click();
  const expiry = await page.getByLabel('Expiry time').inputValue();
  const expectedSeconds = Date.now() / 1000 + 86400;
  expect(Math.abs(new Date(expiry.replace(' ', 'T')).getTime() / 1000 - expectedSeconds)).toBeLessThan(120);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expectToast(page, 'Key created successfully!');
  // the form is ready for the next key
  await expect(page.getByLabel(/^Name/)).toHaveValue('');
  await expect(page.getByLabel('Expiry time')).toHaveValue('');

  const keys = (await (await page.request.get('/api/token/')).json()) as { data: KeyRow[] };
  const created = keys.data.find((key) => key.name === 'laptop');
  expect(created).toBeDefined();
  expect(Math.abs(created!.expired_time - expectedSeconds)).toBeLessThan(120);

  await page.goto('/token');
  const row = page.getByRole('row').filter({ hasText: 'laptop' });
  await expect(row.getByText('Enabled')).toBeVisible();
  await expect(row).toContainText(expiry);
  await expect(row).toContainText('$1.00');

  await row.getByRole('button', { name: 'Copy', exact: true }).click();
  await expectToast(page, 'Copied to clipboard');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`sk-${created!.key}`);

  await row.getByRole('button', { name: /Copy as/ }).click();
  await page.getByRole('menuitem', { name: 'cURL command' }).click();
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  expect(curl).toContain(`${baseURL}/v1/chat/completions`);
  expect(curl).toContain(`Authorization: Bearer sk-${created!.key}`);

  await row.getByRole('button', { name: 'Disable' }).click();
  await expectToast(page, 'Operation completed successfully!');
  await expect(row.getByText('Disabled')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Enable' })).toBeVisible();
  const after = (await (await page.request.get(`/api/token/search?keyword=laptop`)).json()) as {
    data: KeyRow[];
  };
  expect(after.data[0]?.status).toBe(2);
});

test('a key the clipboard refuses goes into the search box with its explanation', async ({
  page,
  request,
}) => {
  await loginViaApi(page, await createUser(request, 'clip'));
  const created = (await (
    await page.request.post('/api/token/', {
      data: { name: 'no-clipboard', remain_quota: 1000, expired_time: -1 },
    })
  ).json()) as { data: KeyRow };
  await page.goto('/token');
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new Error('denied')) },
      configurable: true,
    });
  });
  await page
    .getByRole('row')
    .filter({ hasText: 'no-clipboard' })
    .getByRole('button', { name: 'Copy', exact: true })
    .click();
  await expectToast(page, 'unable to copy to clipboard, please copy manually');
  await expect(page.getByPlaceholder('Search by key name or paste a key ...')).toHaveValue(
    `sk-${created.data.key}`,
  );
  await expect(page.getByRole('row').filter({ hasText: 'no-clipboard' })).toBeVisible();
});

test('the key form refuses an expiry it cannot read, and a malformed subnet with the server message', async ({
  page,
  request,
}) => {
  await loginViaApi(page, await createUser(request, 'form'));
  await page.goto('/token/add');
  await page.getByLabel(/^Name/).fill('bad expiry');
  await page.getByLabel('Expiry time').fill('next tuesday');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('expiry time format error')).toBeVisible();

  await page.getByRole('button', { name: 'Never expires', exact: true }).click();
  await page.getByLabel('Allowed IP subnets').fill('10.0.0.0/8, 10.1.2.3');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expectToast(page, 'Invalid subnet "10.1.2.3"');
  const keys = (await (await page.request.get('/api/token/')).json()) as { data: KeyRow[] };
  expect(keys.data).toEqual([]);
});
