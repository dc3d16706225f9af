import { expect, test } from '@playwright/test';
import { loginViaApi, ROOT } from './helpers';

test('root changes a channel key, and the audit log says who changed it without ever showing the key', async ({
  page,
}) => {
  await loginViaApi(page, ROOT);
  const name = `audited-${Date.now().toString(36)}`;
  const form = {
    type: 1,
    name,
    key: 'sk-e2e-audit-first',
    models: 'gpt-4o',
    group: 'default',
    base_url: '',
    other: '',
    model_mapping: '',
    config: '',
  };
  const created = await (await page.request.post('/api/channel/', { data: form })).json();
  const id: number = created.data.ids[0];
  const edited = await page.request.put('/api/channel/', {
    data: { ...form, id, key: 'sk-e2e-audit-second', priority: 4 },
  });
  expect((await edited.json()).success).toBe(true);

  await page.goto('/');
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await page.getByRole('textbox', { name: /Target ID/ }).fill(String(id));
  await page.getByRole('button', { name: 'Query' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Channel edited' });
  await expect(row).toContainText(name);
  await expect(row).toContainText('root');
  await row.click();
  await expect(row.getByTestId('audit-changes')).toContainText('changed');
  await expect(row.getByTestId('audit-changes')).toContainText('priority');
  expect(await page.content()).not.toContain('sk-e2e-audit');
});

test('on a phone the entries are cards that open to their changes', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginViaApi(page, ROOT);
  const name = `phone-${Date.now().toString(36)}`;
  await page.request.put('/api/option/', { data: { key: 'SystemName', value: name } });
  await page.goto('/audit');
  const card = page.locator('.mantine-Paper-root').filter({ hasText: 'Option changed' }).first();
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: /field/ }).click();
  await expect(card.getByTestId('audit-changes')).toContainText(name);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.request.put('/api/option/', { data: { key: 'SystemName', value: 'Gatehouse' } });
});
