// The random salt of this installation, kept next to the trust store (the extension's global storage,
// the folder of the CLI's --trust-store): the key of every digest of a secret value that is kept or
// compared later (trust store records, env file variables in fingerprints). Never in a repository.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { MIN_SALT_BYTES, saltedDigest, type SecretDigest } from '../core/trust/secretDigest';

/** The salt's file name inside the folder. */
export const SALT_FILE = 'install-salt';
const SALT_BYTES = 32;

/**
 * The salt kept in `dir`, created (32 random bytes, hex, mode 0600) the first time. A file that is
 * not a salt is reported and replaced: digests made with the old one then no longer match, so the
 * servers they covered ask for trust again — never the other way round.
 */
export async function loadInstallSalt(dir: string, onProblem?: (message: string) => void): Promise<Buffer> {
  const file = path.join(dir, SALT_FILE);
  const existing = await readSalt(file);
  if (existing instanceof Buffer) return existing;
  if (existing === 'invalid') onProblem?.(`${file} does not hold a salt; a new one is made (servers with env files ask for trust again)`);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const salt = randomBytes(SALT_BYTES);
  // Written whole to a temp file first, so no process ever reads a half-written salt.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temp, `${salt.toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  try {
    if (existing === 'missing') {
      try {
        // link fails when the file exists: when two processes start at once, the first salt is everybody's.
        await fs.link(temp, file);
        return salt;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const theirs = await readSalt(file);
        if (theirs instanceof Buffer) return theirs;
      }
    }
    await fs.rename(temp, file);
    return salt;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** The salted digest of the installation whose salt lives in `dir`. */
export async function installDigest(dir: string, onProblem?: (message: string) => void): Promise<SecretDigest> {
  return saltedDigest(await loadInstallSalt(dir, onProblem));
}

async function readSalt(file: string): Promise<Buffer | 'missing' | 'invalid'> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new Error(`cannot read the salt ${file}: ${(error as Error).message}`);
  }
  const hex = text.trim();
  return /^(?:[0-9a-f]{2})+$/.test(hex) && hex.length / 2 >= MIN_SALT_BYTES ? Buffer.from(hex, 'hex') : 'invalid';
}
