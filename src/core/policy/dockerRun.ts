// `docker run` and `docker container run` read as docker's CLI reads them (pflag: no abbreviations,
// `--opt=value`, short clusters, options end at the image), with its table of options, and the image
// with docker's reference grammar (@swimlane/docker-reference, distribution's grammar). A tag or digest
// does not change which repository a rule compares; `fetch` is `docker.io/library/fetch`.
import { onFirstUse, type LaunchedPackage, type Packages } from './launchReading';
import { readOptions, type OptionTable } from './optionReader';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const reference = onFirstUse(() => require('@swimlane/docker-reference') as typeof import('@swimlane/docker-reference'));
const OTHER_DAEMON = 'runs the image with another daemon or client configuration, whose images are not the registry\'s';
const GLOBAL: OptionTable = {
  flags: ['-D', '--debug', '--tls', '--tlsverify'],
  values: ['-l', '--log-level', '--config', '-c', '--context', '-H', '--host', '--tlscacert', '--tlscert', '--tlskey'],
  boolValues: true,
};
const GLOBAL_ELSEWHERE: Readonly<Record<string, string>> = { '--config': OTHER_DAEMON, '-c': OTHER_DAEMON, '--context': OTHER_DAEMON, '-H': OTHER_DAEMON, '--host': OTHER_DAEMON };

// `docker run --help` of Docker 28, every option by each spelling.
const RUN: OptionTable = {
  flags: [
    '-d', '--detach', '--disable-content-trust', '--help', '--init', '-i', '--interactive', '--no-healthcheck', '--oom-kill-disable',
    '--privileged', '-P', '--publish-all', '-q', '--quiet', '--read-only', '--rm', '--sig-proxy', '-t', '--tty', '--use-api-socket',
  ],
  values: [
    '--add-host', '--annotation', '-a', '--attach', '--blkio-weight', '--blkio-weight-device', '--cap-add', '--cap-drop', '--cgroup-parent',
    '--cgroupns', '--cidfile', '--cpu-count', '--cpu-percent', '--cpu-period', '--cpu-quota', '--cpu-rt-period', '--cpu-rt-runtime', '-c',
    '--cpu-shares', '--cpus', '--cpuset-cpus', '--cpuset-mems', '--detach-keys', '--device', '--device-cgroup-rule', '--device-read-bps',
    '--device-read-iops', '--device-write-bps', '--device-write-iops', '--dns', '--dns-option', '--dns-search', '--domainname',
    '--entrypoint', '-e', '--env', '--env-file', '--expose', '--gpus', '--group-add', '--health-cmd', '--health-interval', '--health-retries',
    '--health-start-interval', '--health-start-period', '--health-timeout', '-h', '--hostname', '--io-maxbandwidth', '--io-maxiops', '--ip',
    '--ip6', '--ipc', '--isolation', '--kernel-memory', '-l', '--label', '--label-file', '--link', '--link-local-ip', '--log-driver',
    '--log-opt', '--mac-address', '-m', '--memory', '--memory-reservation', '--memory-swap', '--memory-swappiness', '--mount', '--name',
    '--network', '--net', '--network-alias', '--net-alias', '--oom-score-adj', '--pid', '--pids-limit', '--platform', '-p', '--publish',
    '--pull', '--restart', '--runtime', '--security-opt', '--shm-size', '--stop-signal', '--stop-timeout', '--storage-opt', '--sysctl',
    '--tmpfs', '--ulimit', '-u', '--user', '--userns', '--uts', '-v', '--volume', '--volume-driver', '--volumes-from', '-w', '--workdir',
  ],
  boolValues: true,
};
const RUN_ELSEWHERE: Readonly<Record<string, string>> = {
  '--entrypoint': 'runs a program of the entry\'s choosing instead of the image\'s own',
  '--runtime': 'runs the image with another runtime',
};

/** The image `docker ARGS` runs (`run` or `container run`), or why it is not determined. */
export function readDocker(args: readonly string[]): Packages {
  const global = readOptions(args, 0, GLOBAL);
  if ('unknown' in global) return global;
  const [first, second] = global.operands;
  const words = first === 'run' ? global.operands.slice(1) : first === 'container' && second === 'run' ? global.operands.slice(2) : undefined;
  if (words === undefined) return { unknown: `docker ${global.operands.slice(0, 2).join(' ')} (a command that runs no image named on its command line)` };
  const run = readOptions(words, 0, RUN);
  if ('unknown' in run) return run;
  const image = run.operands[0];
  if (image === undefined) return { unknown: 'docker run (no image)' };
  const found = dockerImage(image);
  if ('unknown' in found) return found;
  const elsewhere = [...global.options.map((o) => [o.name, GLOBAL_ELSEWHERE[o.name]]), ...run.options.map((o) => [o.name, RUN_ELSEWHERE[o.name]])].find(([, why]) => why !== undefined);
  return elsewhere === undefined ? { packages: [found] } : { packages: [found], unvouched: `${elsewhere[0]} ${elsewhere[1]}` };
}

/** The repository an image reference names, by its familiar and its full name, or why it names none. */
export function dockerImage(image: string): LaunchedPackage | { unknown: string } {
  let domain: string | undefined;
  let repository: string | undefined;
  try {
    const parsed = reference().parseFamiliarName(image);
    domain = parsed.domain;
    repository = parsed.repository;
  } catch (error) {
    return { unknown: `${image} (not an image reference: ${(error as Error).message})` };
  }
  if (domain === undefined || repository === undefined) return { unknown: `${image} (an image reference without a repository)` };
  const full = `${domain}/${repository}`;
  const familiar = domain === 'docker.io' ? repository.replace(/^library\//, '') : full;
  return { registry: 'docker', names: [...new Set([familiar, full])] };
}
