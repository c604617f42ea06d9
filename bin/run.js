#!/usr/bin/env node
import { createRequire } from 'node:module';

// oclif and the parts of it devboy uses, bundled into one CommonJS file at build time
// (scripts/bundle-oclif.js): a third less start-up than loading its ~140 files one by one.
await createRequire(import.meta.url)('../dist/oclif.cjs').execute({ dir: import.meta.url });
