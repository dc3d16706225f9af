// `npm start`: build what is not built yet, then run the server (console, management API and relay).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
await import('./ensure-built.mjs');
// V8 grows its heap far past what is alive under many concurrent streams; a slower growth kept peak RSS at
// 256 streams ~40 MB lower at no measurable CPU cost (bench/README.md). Smaller semi-spaces
// (--max-semi-space-size=4) took 15-25 MB more off but cost ~20 % more CPU per request at 256 connections:
// not used. Keep in sync with bench/gateway-process.ts.
// No --enable-source-maps: Node then parses the bundle's whole source map at start (~20–28 MB more resident)
// and maps every stack it formats. Stacks name the functions of dist/main.js, which is not minified; set
// NODE_OPTIONS=--enable-source-maps to see TypeScript positions instead.
const nodeFlags = ['--heap-growing-percent=50'];
const server = spawn(process.execPath, [...nodeFlags, 'apps/server/dist/main.js'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
