// What is kept of a secret value where a value must be compared later but never stored (the trust
// store, the env file variables a fingerprint covers): an HMAC-SHA256 keyed with a random salt of this
// installation. Equal values give equal digests here; without the salt a digest cannot be matched
// against a list of likely values, nor against another installation's.
import { createHash, createHmac } from 'node:crypto';

/** Turns a secret value into a digest that is safe to keep. Idempotent: a digest is returned as is. */
export interface SecretDigest {
  digest(value: string): string;
}

/** The prefix of a salted digest. */
export const SALTED_DIGEST_PREFIX = 'hmac-sha256:';
const SALTED = /^hmac-sha256:[0-9a-f]{64}$/;
/** Digests written before values were salted (compared, never written any more). */
const LEGACY = /^sha256:[0-9a-f]{64}$/;
/** Fewer random bytes than this would make the salt guessable. */
export const MIN_SALT_BYTES = 16;

/** Whether a text is a digest (salted, or of the older unsalted kind) rather than a value. */
export function isDigest(value: string): boolean {
  return SALTED.test(value) || LEGACY.test(value);
}

/** The digest of this installation's salt. Throws when the salt is too short to be a secret. */
export function saltedDigest(salt: Uint8Array): SecretDigest {
  if (salt.length < MIN_SALT_BYTES) throw new Error(`a digest salt needs at least ${MIN_SALT_BYTES} random bytes (got ${salt.length})`);
  const key = Buffer.from(salt);
  return {
    digest: (value) => (isDigest(value) ? value : SALTED_DIGEST_PREFIX + createHmac('sha256', key).update(value, 'utf8').digest('hex')),
  };
}

/**
 * Whether a value kept as `stored` (a digest, or a value) and a current value are the same, for a store
 * written by any version: older stores hold unsalted sha256 digests.
 */
export function sameSecret(stored: string, current: string, digest: SecretDigest): boolean {
  if (LEGACY.test(stored) && !isDigest(current)) return stored === `sha256:${createHash('sha256').update(current, 'utf8').digest('hex')}`;
  return digest.digest(stored) === digest.digest(current);
}

/** A digest whose salt is still being read (see deferredDigest). */
export interface DeferredDigest extends SecretDigest {
  /** Resolves once the salt is in (rejects when it could not be had). */
  readonly loaded: Promise<SecretDigest>;
}

/**
 * The digest of a salt still being read, usable at once by what is built before it arrives: until
 * `loaded` resolved, digest() throws — nothing is digested, stored or compared with a key not there yet.
 */
export function deferredDigest(loading: Promise<SecretDigest>): DeferredDigest {
  let inner: SecretDigest | undefined;
  const loaded = loading.then((digest) => { inner = digest; return digest; });
  return {
    loaded,
    digest: (value) => {
      if (inner === undefined) throw new Error("a secret was digested before the installation's salt was read");
      return inner.digest(value);
    },
  };
}
