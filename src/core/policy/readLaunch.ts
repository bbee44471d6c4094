// The one reader of launch definitions the policy matches: through the wrappers to the program that
// runs, then, for a package runner or docker, the packages or image it runs, each read with the
// launcher's own grammar. Everything that matches a server against a rule asks this reader.
import type { EffectiveServer } from '../config/types';
import { isExecVariable } from '../trust/execVariables';
import { readDocker } from './dockerRun';
import type { LaunchReading, Packages } from './launchReading';
import { readNpm, readNpx } from './npmExec';
import { readRunner, runnerOf } from './packageRunners';
import { readProgramWords } from './programWords';

/** How the policy reads a server's launch: its programs and the packages or image it runs. */
export function readLaunch(launch: EffectiveServer['launch'], platform: NodeJS.Platform = process.platform): LaunchReading {
  if (launch.command === undefined) return { programs: [], packages: [] };
  const words = readProgramWords(launch.command, launch.args, platform);
  const variable = Object.keys(launch.env).find(isExecVariable);
  const unvouched = words.unvouched ?? (variable === undefined ? undefined : `${variable} (the entry sets a variable that can change which program runs or what it loads)`);
  const vouch = (reading: LaunchReading): LaunchReading => (unvouched === undefined || reading.unvouched !== undefined ? reading : { ...reading, unvouched });
  if (words.runs === undefined) {
    const why = words.unknown ?? 'no program';
    return { programs: words.programs, programUnknown: why, packages: [], packagesUnknown: why };
  }
  const read = packagesOf(words.runs.program, words.runs.args);
  if ('unknown' in read) return vouch({ programs: words.programs, packages: [], packagesUnknown: read.unknown });
  return vouch({ programs: words.programs, packages: read.packages, ...(read.unvouched !== undefined ? { unvouched: read.unvouched } : {}) });
}

function packagesOf(program: string, args: readonly string[]): Packages {
  if (program === 'npx') return readNpx(args);
  if (program === 'npm') return readNpm(args);
  if (program === 'docker') return readDocker(args);
  const runner = runnerOf(program, args);
  if (runner === undefined) return { packages: [] };
  if ('unknown' in runner) return runner;
  return readRunner(runner.spec, args, runner.start);
}
