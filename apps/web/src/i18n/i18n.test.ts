import { describe, expect, it } from 'vitest';
import type { MessageTree } from './deep-merge';

const files = import.meta.glob<MessageTree>('./*/*.json', { eager: true, import: 'default' });

function leafKeys(tree: MessageTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );
}

function keysByFile(language: string): Map<string, string[]> {
  return new Map(
    Object.entries(files)
      .filter(([path]) => path.startsWith(`./${language}/`))
      .map(([path, tree]) => [path.slice(language.length + 3), leafKeys(tree)]),
  );
}

describe('message files', () => {
  const english = keysByFile('en');
  const chinese = keysByFile('zh');

  it('translate every English message into Chinese', () => {
    for (const [file, keys] of english) {
      const translated = new Set(chinese.get(file) ?? []);
      expect({ file, untranslated: keys.filter((key) => !translated.has(key)) }).toEqual({
        file,
        untranslated: [],
      });
    }
  });

  it('never define the same key twice, which would silently override one file with another', () => {
    const owners = new Map<string, string>();
    const clashes: string[] = [];
    for (const [file, keys] of english) {
      for (const key of keys) {
        const owner = owners.get(key);
        if (owner) clashes.push(`${key} in ${owner} and ${file}`);
        owners.set(key, file);
      }
    }
    expect(clashes).toEqual([]);
  });
});
