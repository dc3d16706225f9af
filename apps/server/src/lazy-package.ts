import { createRequire } from 'node:module';

const requirePackage = createRequire(import.meta.url);

/**
 * A package loaded the first time it is used, for subsystems most servers never switch on (tracing, metrics,
 * Redis, AWS signing, mail, 2FA, the configuration file): the server then starts without their code in memory.
 * Synchronous (`require`), so only for packages that ship CommonJS; ESM-only ones use `import()` where they are
 * needed. Pass `typeof import type * as X`: `lazyPackage<typeof X>('x')`.
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requirePackage(name) as T);
}
