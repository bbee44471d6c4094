// `${input:id}` values are supplied at launch, never at parse time: the parsed launch (and so the
// fingerprint, the trust store and everything the UI shows) keeps the placeholder text, and only the
// copy handed to the connector carries the values.
import type { EffectiveServer, LaunchDefinition } from './types';

// The same shape expandVariables accepts as an input reference: `${input:` + a non-blank id + `}`.
const INPUT_REFERENCE = /\$\{input:([^{}]*)\}/g;

/** The ids of every `${input:id}` in the launch's command, args, env, envFile, cwd, url, headers and oauth client, in order of first use. */
export function inputIdsOf(launch: LaunchDefinition): string[] {
  const ids: string[] = [];
  for (const text of launchStrings(launch)) {
    for (const match of text.matchAll(INPUT_REFERENCE)) {
      const id = match[1];
      if (id.trim() !== '' && !ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

/**
 * The launch with every `${input:id}` whose id has a value replaced by that value, in one pass (a value
 * that itself reads `${input:other}` is not expanded again). References without a value stay verbatim.
 */
export function substituteInputs(launch: LaunchDefinition, values: Readonly<Record<string, string>>): LaunchDefinition {
  const sub = (text: string): string => substituteText(text, values);
  const result: LaunchDefinition = {
    type: launch.type,
    args: launch.args.map(sub),
    env: mapValues(launch.env, sub),
    headers: mapValues(launch.headers, sub),
  };
  if (launch.command !== undefined) result.command = sub(launch.command);
  if (launch.envFile !== undefined) result.envFile = sub(launch.envFile);
  // The digests describe the file the configuration named; they stay as the gate saw them.
  if (launch.envFileVars !== undefined) result.envFileVars = { ...launch.envFileVars };
  if (launch.cwd !== undefined) result.cwd = sub(launch.cwd);
  if (launch.url !== undefined) result.url = sub(launch.url);
  if (launch.expandedVars !== undefined) result.expandedVars = { ...launch.expandedVars };
  // Written without inputs (the parser refuses them there): the folders as the gate saw them.
  if (launch.roots !== undefined) result.roots = launch.roots === false ? false : [...launch.roots];
  // Like envFileVars: what the gate saw, checked again at launch.
  if (launch.runnerConfig !== undefined) result.runnerConfig = launch.runnerConfig.map((entry) => ({ ...entry, settings: [...entry.settings] }));
  if (launch.oauth !== undefined) {
    const oauth = { ...launch.oauth };
    if (oauth.clientId !== undefined) oauth.clientId = sub(oauth.clientId);
    if (oauth.clientSecret !== undefined) oauth.clientSecret = sub(oauth.clientSecret);
    result.oauth = oauth;
  }
  return result;
}

/**
 * The server as the connector launches it: its launch (envFile included) with the values in. Its id
 * and fingerprint stay those of the definition as written.
 */
export function withInputValues(server: EffectiveServer, values: Readonly<Record<string, string>>): EffectiveServer {
  return { ...server, launch: substituteInputs(server.launch, values) };
}

/** The ids a server needs: those the parser reported, and any other reference in its launch (envFile included). */
export function inputsNeededBy(server: Pick<EffectiveServer, 'launch' | 'needsInput'>): string[] {
  const ids = [...server.needsInput];
  for (const id of inputIdsOf(server.launch)) if (!ids.includes(id)) ids.push(id);
  return ids;
}

function substituteText(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(INPUT_REFERENCE, (token: string, id: string) => (Object.hasOwn(values, id) ? values[id] : token));
}

function launchStrings(launch: LaunchDefinition): string[] {
  return [
    ...(launch.command !== undefined ? [launch.command] : []),
    ...launch.args,
    ...Object.values(launch.env),
    ...(launch.envFile !== undefined ? [launch.envFile] : []),
    ...(launch.cwd !== undefined ? [launch.cwd] : []),
    ...(launch.url !== undefined ? [launch.url] : []),
    ...Object.values(launch.headers),
    ...(launch.oauth?.clientId !== undefined ? [launch.oauth.clientId] : []),
    ...(launch.oauth?.clientSecret !== undefined ? [launch.oauth.clientSecret] : []),
  ];
}

function mapValues(record: Readonly<Record<string, string>>, map: (value: string) => string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) result[key] = map(value);
  return result;
}
