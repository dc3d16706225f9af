import type { Plugin } from 'esbuild';

/** Packages compiled into the server bundle instead of loaded from node_modules. */
export const BUNDLED_PACKAGES: ReadonlySet<string>;
/** The esbuild plugin that decides how the bundle loads each package; `sourceDir`: the server's src/. */
export function packagesPlugin(sourceDir: string): Plugin;
/** An entry point that is a package's whole API. */
export function packageEntry(name: string): string;
/** Defines the `require` that CommonJS packages are loaded with, at the top of every output file. */
export const REQUIRE_BANNER: string;
/** Whether Node runs the file as CommonJS. */
export function isCommonJsFile(file: string): boolean;
