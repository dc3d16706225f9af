import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { colorSchemeStorageKey } from './app-providers';

const webRoot = path.resolve(import.meta.dirname, '../..');
// The script index.html loads before the console's code (public/color-scheme.js), run as the browser would.
const script = readFileSync(path.join(webRoot, 'public/color-scheme.js'), 'utf8');
const indexHtml = readFileSync(path.join(webRoot, 'index.html'), 'utf8');

function runScript(systemPrefersDark = false): string | null {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) => ({ matches: systemPrefersDark, media: query }) as MediaQueryList,
  );
  document.documentElement.removeAttribute('data-mantine-color-scheme');
  new Function(script)();
  return document.documentElement.getAttribute('data-mantine-color-scheme');
}

afterEach(() => document.documentElement.removeAttribute('data-mantine-color-scheme'));

describe('color-scheme.js', () => {
  it('reads the key the colour scheme switch writes', () => {
    expect(script).toContain(`'${colorSchemeStorageKey}'`);
  });

  it('applies the stored scheme, follows the system for auto, and falls back to light', () => {
    localStorage.setItem(colorSchemeStorageKey, 'dark');
    expect(runScript()).toBe('dark');
    localStorage.setItem(colorSchemeStorageKey, 'light');
    expect(runScript(true)).toBe('light');
    localStorage.setItem(colorSchemeStorageKey, 'auto');
    expect(runScript(true)).toBe('dark');
    expect(runScript(false)).toBe('light');
    localStorage.setItem(colorSchemeStorageKey, 'purple');
    expect(runScript(true)).toBe('light');
    localStorage.removeItem(colorSchemeStorageKey);
    expect(runScript()).toBe('light');
  });

  it('is loaded by index.html as a file, before the console module', () => {
    const classic = indexHtml.indexOf('<script src="/color-scheme.js"></script>');
    expect(classic).toBeGreaterThan(-1);
    expect(classic).toBeLessThan(indexHtml.indexOf('type="module"'));
    expect(indexHtml).not.toMatch(/<script>(?!<\/script>)/);
  });
});
