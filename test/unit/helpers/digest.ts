// A salted digest for tests: a fixed salt, so digests are the same in every run (never a real install's).
import { saltedDigest } from '../../../src/core/trust/secretDigest';

export const TEST_SALT = Buffer.alloc(32, 7);
export const TEST_DIGEST = saltedDigest(TEST_SALT);
