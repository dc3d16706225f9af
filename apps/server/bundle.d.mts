/** Bundles `<root>/apps/server/src/main.ts` into `<outdir>/main.js` (chunks beside it), as `npm start` runs it. */
export function bundleServer(root: string, outdir: string): Promise<string>;
