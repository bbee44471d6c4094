// What a server's launch definition runs, as the policy reads it: the programs on the way (wrappers
// included) and the packages or images a package runner or docker starts. Deny by default: when the
// reader meets a word it does not know, what runs is not determined, and the reason names the word.
/** A package or image a launcher would fetch and run. */
export interface LaunchedPackage {
  registry: 'npm' | 'pypi' | 'docker';
  /** The names a rule is compared with: npm/PyPI the package name, docker the familiar and the full repository. */
  names: readonly string[];
}

/** How the policy reads one launch definition. */
export interface LaunchReading {
  /** Every program on the way, by name (`env`, then `npx`): what a `command` rule compares, besides the command as written. */
  programs: readonly string[];
  /** Set when the program that finally runs is not known (a wrapper option it does not know, a script), naming the word. */
  programUnknown?: string;
  /** The packages or images the launcher runs, when they are determined. */
  packages: readonly LaunchedPackage[];
  /** Set when which package or image runs is not determined (a deny rule on packages may then match), naming the word. */
  packagesUnknown?: string;
  /** Set when what runs is named but may not be what the name means (another registry, a file the entry chose), naming why. */
  unvouched?: string;
}

/** A reading step's outcome: the packages, or why they are not determined. */
export type Packages = { packages: LaunchedPackage[]; unvouched?: string } | { unknown: string };

/** Whether `table` has its own entry `key` (not one inherited from Object). */
export function own(table: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(table, key);
}

/**
 * A module loaded on its first use. The launchers' own parsers take tens of milliseconds to load, and
 * activation reads no command line, so they load when the policy first reads one.
 */
export function onFirstUse<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: load() }).value;
}
