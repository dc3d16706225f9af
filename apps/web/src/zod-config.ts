import { z } from 'zod';

// Zod probes for eval (new Function) when it builds its first object schema, to compile faster parsers; the
// server's Content-Security-Policy forbids eval, so the probe would be reported as a violation on every page.
// The console's forms are small: interpreted parsers are fast enough. main.tsx imports this module first, before
// any module that builds a schema.
z.config({ jitless: true });
