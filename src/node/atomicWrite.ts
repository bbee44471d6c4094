// Replacing a file through a temporary file and a rename, so that a watcher (the extension's, another
// editor's) never reads half of it; its permissions are kept.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes `text` to `file`, creating its folder. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const folder = path.dirname(file);
  await fs.promises.mkdir(folder, { recursive: true });
  const mode = await fs.promises.stat(file).then((stat) => stat.mode & 0o777, () => 0o644);
  const temporary = path.join(folder, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  await fs.promises.writeFile(temporary, text, { mode });
  await fs.promises.rename(temporary, file);
}
