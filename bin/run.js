#!/usr/bin/env node
import { createRequire } from 'node:module';

// oclif is CommonJS. Required, not imported, it and the command modules load in about a quarter
// less time on Node 20 (start-up: `npm run bench -- --only startup`); only its execute entry, since
// the package index also loads what only plugins need.
await createRequire(import.meta.url)('@oclif/core/execute').execute({ dir: import.meta.url });
