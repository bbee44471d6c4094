// The policy matcher: whether a server is denied, and by which rule. A deny rule always wins; with
// "only allowlisted servers", a server no allow rule matches is denied too. What a rule compares comes
// from the one reader of launch definitions (readLaunch): the programs on the way, the packages or
// image a runner starts. Each field of a rule fits a server yes, for some of its packages, maybe (the
// reader could not determine it) or no: a deny rule denies unless a field says no; an allow rule allows
// only when every field says yes and nothing it compares is in doubt.
import type { EffectiveServer } from '../config/types';
import type { Policy, PolicyVerdict, ServerRule, SourcedRule } from './types';
import type { LaunchReading } from './launchReading';
import { readLaunch } from './readLaunch';
import { normalizePypiName } from './pypiSpecs';
import { programName } from './programWords';
import { normalizeUrl, normalizeUrlPattern } from './urls';

/** How one field of a rule fits a server. */
type Fit = { fit: 'yes' | 'some' | 'no' } | { fit: 'maybe'; why: string };

/** The policy's verdict on one server. */
export function evaluatePolicy(policy: Policy, server: EffectiveServer, platform: NodeJS.Platform = process.platform): PolicyVerdict {
  // What the policy itself provides is what the administrator wants run.
  if (server.scope === 'managed') return { verdict: 'allowed', rule: server.source.file, reason: `provided by the policy (${server.source.file})` };
  if (policy.unreadable !== undefined) return { verdict: 'denied', rule: policy.unreadable, reason: `blocked by policy: ${policy.unreadable}; no server runs until it is fixed` };
  const reading = readLaunch(server.launch, platform);
  for (const sourced of policy.denied) {
    const fits = fitsOf(sourced.rule, server, reading, platform);
    if (fits.some((f) => f.fit === 'no')) continue;
    const doubt = fits.find((f): f is { fit: 'maybe'; why: string } => f.fit === 'maybe');
    return { verdict: 'denied', rule: sourced.origin, reason: `blocked by policy: ${describeRule(sourced)}${doubt === undefined ? '' : `, which may match: what it runs is not determined at ${doubt.why}`}` };
  }
  let doubt: string | undefined;
  for (const sourced of policy.allowed) {
    const fits = fitsOf(sourced.rule, server, reading, platform);
    const maybe = fits.find((f): f is { fit: 'maybe'; why: string } => f.fit === 'maybe');
    if (fits.every((f) => f.fit === 'yes') && !(readsLaunch(sourced.rule) && reading.unvouched !== undefined)) {
      return { verdict: 'allowed', rule: sourced.origin, reason: `allowed by policy: ${describeRule(sourced)}` };
    }
    if (!fits.some((f) => f.fit === 'no')) doubt ??= maybe !== undefined ? `what it runs is not determined at ${maybe.why}` : fits.some((f) => f.fit === 'some') ? 'it runs packages that rule does not name' : `it is not vouched for: ${reading.unvouched}`;
  }
  if (policy.onlyAllowlisted !== undefined) {
    return { verdict: 'denied', rule: policy.onlyAllowlisted, reason: `blocked by policy: only allowlisted servers may run (${policy.onlyAllowlisted}) and no allowedServers rule matches it${doubt === undefined ? '' : ` (${doubt})`}` };
  }
  return { verdict: 'allowed', reason: 'no policy rule applies' };
}

/** Whether a rule compares what the launch runs (so a doubt about it keeps the rule from allowing). */
function readsLaunch(rule: ServerRule): boolean {
  return rule.command !== undefined || rule.npm !== undefined || rule.pypi !== undefined || rule.docker !== undefined;
}

function fitsOf(rule: ServerRule, server: EffectiveServer, reading: LaunchReading, platform: NodeJS.Platform): Fit[] {
  const fits: Fit[] = [];
  const yesNo = (ok: boolean): Fit => ({ fit: ok ? 'yes' : 'no' });
  const { command, url } = server.launch;
  if (rule.name !== undefined) fits.push(yesNo(glob(rule.name, server.name) || glob(rule.name, server.id)));
  if (rule.fingerprint !== undefined) fits.push(yesNo(rule.fingerprint.toLowerCase() === server.fingerprint.toLowerCase()));
  if (rule.command !== undefined) fits.push(commandFit(rule.command, command, reading, platform));
  if (rule.url !== undefined) fits.push(urlFit(rule.url, url));
  if (rule.npm !== undefined) fits.push(packageFit(reading, 'npm', (name) => glob(rule.npm!, name)));
  if (rule.pypi !== undefined) fits.push(packageFit(reading, 'pypi', (name) => glob(normalizePypiName(rule.pypi!), name)));
  if (rule.docker !== undefined) fits.push(packageFit(reading, 'docker', (name) => glob(rule.docker!, name)));
  return fits.length > 0 ? fits : [{ fit: 'no' }];
}

function commandFit(pattern: string, command: string | undefined, reading: LaunchReading, platform: NodeJS.Platform): Fit {
  if (command === undefined) return { fit: 'no' };
  const written = [command, command.split(/[\\/]/).pop() ?? command];
  const named = /[\\/]/.test(pattern) ? pattern : programName(pattern, platform);
  if (written.some((word) => glob(pattern, word)) || reading.programs.some((program) => glob(pattern, program) || glob(named, program))) return { fit: 'yes' };
  return reading.programUnknown !== undefined ? { fit: 'maybe', why: reading.programUnknown } : { fit: 'no' };
}

function urlFit(pattern: string, url: string | undefined): Fit {
  if (url === undefined) return { fit: 'no' };
  const normal = normalizeUrl(url);
  if (normal === undefined) return { fit: 'maybe', why: `${url} (not a URL the parser reads)` };
  return { fit: glob(normalizeUrlPattern(pattern), normal) ? 'yes' : 'no' };
}

function packageFit(reading: LaunchReading, registry: 'npm' | 'pypi' | 'docker', test: (name: string) => boolean): Fit {
  if (reading.packagesUnknown !== undefined) return { fit: 'maybe', why: reading.packagesUnknown };
  const packages = reading.packages.filter((pkg) => pkg.registry === registry);
  const matching = packages.filter((pkg) => pkg.names.some(test)).length;
  if (matching === 0) return { fit: 'no' };
  return { fit: matching === reading.packages.length ? 'yes' : 'some' };
}

/** `*` matches any run of characters; nothing else is special. */
export function glob(pattern: string, value: string): boolean {
  const parts = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's').test(value);
}

function describeRule(sourced: SourcedRule): string {
  const fields = Object.entries(sourced.rule).map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(', ');
  return `${sourced.origin} (${fields})`;
}
