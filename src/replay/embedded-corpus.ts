import { fileURLToPath } from 'node:url';

/**
 * The public corpus that ships inside devboy (`corpus/` at the package root), the default data of
 * `devboy benchmark` and the sample data of tests and bench scripts. This module compiles to
 * dist/src/replay/, three levels below the root, in a clone and in an installed package alike.
 */
export const EMBEDDED_CORPUS = fileURLToPath(new URL('../../../corpus', import.meta.url));

/** How the embedded corpus is named in results, so a saved run does not depend on where devboy lives. */
export const EMBEDDED_CORPUS_LABEL = 'embedded';
