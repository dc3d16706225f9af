// Bundles the server into dist/main.js and dist/chunks/ (see bundle.mjs).
import { fileURLToPath } from 'node:url';
import { bundleServer } from './bundle.mjs';

await bundleServer(fileURLToPath(new URL('../..', import.meta.url)), 'dist');
