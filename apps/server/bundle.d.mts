/** Bundles `<root>/apps/server/src/main.ts` into `<outdir>/main.js` (chunks beside it), as `npm start` runs it. */
export function bundleServer(root: string, outdir: string): Promise<string>;
/** The largest file the bundle may have (bundle.mjs says why). */
export const MAX_FILE_BYTES: number;
