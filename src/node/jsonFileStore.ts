// A JSON document in one file, for the stores of src/core/trust (trust decisions, tool pins). Written
// atomically (a temp file in the same folder, then rename) with mode 0600, because it says what may run
// on this machine. Reading never throws: a missing file is "nothing yet"; an unreadable or corrupt one
// is reported with the way forward and read as nothing, and is copied aside before it is overwritten.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { DocumentStorage } from '../core/trust/trustStore';

export interface JsonFileStoreOptions {
  /** Told, in one sentence, when the file exists but cannot be used. */
  onProblem?(message: string): void;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

export class JsonFileStore implements DocumentStorage {
  /** Set when the last read found a file it could not use: the next write keeps a copy of it first. */
  private unusable = false;

  constructor(readonly file: string, private readonly options: JsonFileStoreOptions = {}) {}

  async read(): Promise<unknown> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      this.unusable = true;
      this.report(`cannot read ${this.file}: ${(error as Error).message}; it is treated as empty`);
      return undefined;
    }
    if (text.trim() === '') return undefined;
    try {
      const value: unknown = JSON.parse(text);
      this.unusable = false;
      return value;
    } catch (error) {
      this.unusable = true;
      this.report(`${this.file} is not valid JSON (${(error as Error).message}); it is treated as empty, and kept as ${path.basename(this.backupFile)} when it is next written`);
      return undefined;
    }
  }

  async write(document: unknown): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true, mode: DIR_MODE });
    if (this.unusable) {
      await fs.copyFile(this.file, this.backupFile).catch(() => undefined);
      this.unusable = false;
    }
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      const handle = await fs.open(temp, 'wx', FILE_MODE);
      try {
        await handle.writeFile(`${JSON.stringify(document, null, 2)}\n`, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, this.file);
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  /** Where a corrupt file is copied before it is replaced. */
  get backupFile(): string {
    return `${this.file}.corrupt`;
  }

  private report(message: string): void {
    this.options.onProblem?.(message);
  }
}
