/**
 * The STC encoder and decoder exactly as they were before they were made faster (commit 07e1d38,
 * src/formats/stc/). They stay here, unchanged, as the reference: test/stc-reference.test.ts checks that
 * the current code writes the same bytes and decodes to the same values and the same errors.
 */
export { decodeStc as decodeStcReference } from './decode.js';
export { encodeStc as encodeStcReference } from './encode.js';
