// npm package specs read with npm's own reader (npm-package-arg): `name@range`, tags, and aliases
// (`name@npm:other` runs `other`). A git, URL, file, folder or tarball spec does not say which package
// it is (its package.json does), so it leaves the package undetermined.
import type npaType from 'npm-package-arg';
import { onFirstUse, type LaunchedPackage, type Packages } from './launchReading';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const npa = onFirstUse(() => require('npm-package-arg') as typeof npaType);

/** The registry package `spec` names, or why it names none. */
export function npmPackage(spec: string): LaunchedPackage | { unknown: string } {
  // An alias's target (`subSpec`) is newer than the published types.
  let parsed: npaType.Result & { subSpec?: npaType.Result };
  try {
    parsed = npa()(spec);
  } catch (error) {
    return { unknown: `${spec} (not a package spec: ${(error as Error).message})` };
  }
  const target = parsed.type === 'alias' && parsed.subSpec !== undefined ? parsed.subSpec : parsed;
  if (target.registry !== true || target.name === null || target.name === undefined) {
    return { unknown: `${spec} (a ${target.type} spec: the package it installs is named in what it fetches, not in the word)` };
  }
  return { registry: 'npm', names: [target.name] };
}

/** A package's own command name by npm's convention: `@scope/server-x` → `server-x`. */
export function ownCommand(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/**
 * What a runner runs given its `--package` specs and its first operand. Without one, the operand is the
 * package; with some, the operand is a command looked up among their commands and then on PATH, so it
 * is determined only when it is one of the packages' own command names.
 */
export function withPackages(given: readonly string[], first: string | undefined, read: (spec: string) => LaunchedPackage | { unknown: string } = npmPackage, own: (name: string) => string = ownCommand): Packages {
  const specs = given.length > 0 ? given : first === undefined ? [] : [first];
  if (specs.length === 0) return { unknown: 'no package (the runner names none)' };
  const packages: LaunchedPackage[] = [];
  for (const spec of specs) {
    const one = read(spec);
    if ('unknown' in one) return one;
    packages.push(one);
  }
  if (given.length === 0) return { packages };
  if (first === undefined) return { unknown: 'no command after the packages it installs' };
  if (!packages.some((pkg) => pkg.names.some((name) => own(name) === first))) {
    return { unknown: `${first} (a command that is none of ${specs.join(', ')}'s own, so it may be any program on PATH)` };
  }
  return { packages };
}
