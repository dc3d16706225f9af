import { readFileSync } from 'node:fs';

/** The product version from the root package.json, read once. */
function readVersion(): string {
  for (const relative of ['../../../../package.json', '../../../package.json']) {
    try {
      const parsed = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (parsed.name === 'gatehouse' && parsed.version) return `v${parsed.version}`;
    } catch {
      // try the next location: this file runs from src/status (tsx) or from the dist bundle
    }
  }
  return 'v0.0.0';
}

export const VERSION = readVersion();
