// Lists the skill folders of one skills directory: the sub-folders that hold a SKILL.md. Synchronous,
// because the layer specs are computed synchronously and a skills directory holds a handful of entries.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SKILL_FILE } from '../core/skills/locations';

/** The names of the folders in `dir` with a SKILL.md file; none when `dir` is missing or unreadable. */
export function skillFolders(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, SKILL_FILE)))
    .map((entry) => entry.name);
}
