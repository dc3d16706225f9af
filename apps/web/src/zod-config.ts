import { config } from 'zod/v4';

// Zod probes for eval (new Function) when it builds an object schema, to compile faster parsers; the server's
// Content-Security-Policy forbids eval, so the probe would be reported as a violation on every page. The
// console's forms are small: interpreted parsers are fast enough. vite.config.ts resolves every `import … from
// 'zod'` of the console (packages/shared's schemas included) to this module, so the switch is set before any
// schema is built, whichever chunk the bundler puts the schemas in.
config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
