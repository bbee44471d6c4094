// PyPI requirement specs as uvx, `uv tool run` and `pipx run` take them (PEP 508 without markers, and
// uv's `name@version`): the distribution name, extras and version are read; a direct reference
// (`name @ https://…`, `git+…`, a path) or anything else leaves the package undetermined. Names are
// compared normalised (PEP 503: case folded, runs of `-`, `_` and `.` as one `-`).
import type { LaunchedPackage } from './launchReading';

const NAME = '[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?';
const VERSION = '[A-Za-z0-9.*+!_-]+';
const OPERATOR = '(?:===|==|!=|<=|>=|~=|<|>)';
const CLAUSE = `${OPERATOR}\\s*${VERSION}`;
const REQUIREMENT = new RegExp(`^(${NAME})\\s*(?:\\[\\s*(?:${NAME}(?:\\s*,\\s*${NAME})*)?\\s*\\])?\\s*(?:@(?:${VERSION})|${CLAUSE}(?:\\s*,\\s*${CLAUSE})*)?$`);

/** PEP 503's normal form of a distribution name (`Mcp_Server.Fetch` → `mcp-server-fetch`); `*` is kept for rules. */
export function normalizePypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** The PyPI distribution `spec` names, or why it names none. */
export function pypiPackage(spec: string): LaunchedPackage | { unknown: string } {
  const match = REQUIREMENT.exec(spec);
  if (match === null) return { unknown: `${spec} (not a requirement the policy reads: a URL, a path or a marker says what is installed, not a name)` };
  return { registry: 'pypi', names: [normalizePypiName(match[1])] };
}
