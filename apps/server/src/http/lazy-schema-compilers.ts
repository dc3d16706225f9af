import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type ValidatorFactory = NonNullable<CompilersFactory['buildValidator']>;
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>;

// Resolved from fastify's own folder: these are its dependencies, not ours.
const requireFromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

/**
 * Fastify's own schema compilers (ajv for validation, fast-json-stringify for responses), loaded the first time
 * a route with a JSON schema needs one. Fastify requires both when it starts, ~1.1 MB of source in 230 modules
 * (ajv, ajv-formats, fast-uri, fast-json-stringify) resident in every server; our routes validate with zod and
 * declare no JSON schemas, so they are never needed unless a plugin brings its own.
 */
export function lazySchemaCompilers(): CompilersFactory {
  return {
    buildValidator: loadedOnFirstCall<ValidatorFactory>('@fastify/ajv-compiler'),
    buildSerializer: loadedOnFirstCall<SerializerFactory>('@fastify/fast-json-stringify-compiler'),
  };
}

/** A compiler factory that requires its package (which exports a function making the factory) when first called. */
function loadedOnFirstCall<Factory>(name: string): Factory {
  let factory: ((...args: unknown[]) => unknown) | undefined;
  const callLoaded = (...args: unknown[]) => {
    factory ??= (requireFromFastify(name) as () => (...args: unknown[]) => unknown)();
    return factory(...args);
  };
  // The factories' types are overloaded (ajv or JTD); the loaded one answers every overload itself.
  return callLoaded as Factory;
}
