// Values that `${VAR}` and `${env:VAR}` bring in from the environment are secrets like env values: the
// parser records them (with the variable's name), the one redaction masks them wherever a launch is
// shown, and the trust store keeps only digests of them.
import * as assert from 'node:assert/strict';
import { expandVariables } from '../../src/core/config/variables';
import { mergeLayers } from '../../src/core/config/merge';
import { substituteInputs } from '../../src/core/config/inputs';
import { fingerprint } from '../../src/core/config/fingerprint';
import { redactLaunch, secretsOf } from '../../src/core/lifecycle/redact';
import { launchDiff, storedLaunch } from '../../src/core/trust/launchDiff';
import { buildTrustPrompt } from '../../src/core/trust/promptText';
import { parseText } from './helpers/config';
import { TEST_DIGEST } from './helpers/digest';

const TOKEN = 'ghp_exampletoken0123456789';
const env = { GH_TOKEN: TOKEN, REGION: 'eu-west-1', EMPTY: '' };

function server(value: unknown, vars: Record<string, string> = env) {
  const merged = mergeLayers([parseText(JSON.stringify({ mcpServers: { s: value } }), { vars: { env: vars, userHome: '/home/ada', workspaceFolder: '/ws/app' } })]);
  assert.deepEqual(merged.problems.filter((problem) => problem.severity === 'error'), []);
  return merged.servers[0];
}

describe('values expanded from the environment', () => {
  it('expandVariables reports what each ${VAR} and ${env:VAR} took from the environment, not defaults or built-ins', () => {
    const expansion = expandVariables('${GH_TOKEN}/${env:REGION}/${MISSING:-fallback}/${EMPTY:-dflt}/${workspaceFolder}', { env, userHome: '/h', workspaceFolder: '/ws' });
    assert.equal(expansion.value, `${TOKEN}/eu-west-1/fallback/dflt//ws`);
    assert.deepEqual(expansion.fromEnvironment, { GH_TOKEN: TOKEN, REGION: 'eu-west-1' });
  });

  it('the parser records them on the launch, from args, url, headers, command and cwd', () => {
    const stdio = server({ command: 'node', args: ['srv.js', '--repo-token', 'x', `--auth=\${env:GH_TOKEN}`, '--region=${REGION}'] });
    assert.deepEqual(stdio.launch.expandedVars, { GH_TOKEN: TOKEN, REGION: 'eu-west-1' });
    const remote = server({ url: 'https://api.example.com/${REGION}/mcp?k=${GH_TOKEN}', headers: { 'X-Region': '${REGION}' } });
    assert.deepEqual(remote.launch.expandedVars, { GH_TOKEN: TOKEN, REGION: 'eu-west-1' });
    assert.equal(server({ command: 'node', args: ['srv.js'] }).launch.expandedVars, undefined);
  });

  it('are secrets of the launch: masked in every printed form', () => {
    const stdio = server({ command: 'node', args: ['srv.js', 'pos=${GH_TOKEN}', '${REGION}'] });
    assert.ok(secretsOf(stdio.launch).includes(TOKEN));
    const printed = redactLaunch(stdio.launch);
    assert.equal(printed, 'node srv.js pos=*** ***');
    const remote = server({ url: 'https://api.example.com/v1/${GH_TOKEN}/mcp' });
    assert.equal(redactLaunch(remote.launch), 'https://api.example.com/v1/***/mcp');
  });

  it('are not part of the fingerprint beyond the text they expand into, and survive ${input:…} substitution', () => {
    const a = server({ command: 'node', args: ['--x=${REGION}'] });
    assert.equal(fingerprint(a.launch), fingerprint({ ...a.launch, expandedVars: undefined }));
    assert.deepEqual(substituteInputs(a.launch, {}).expandedVars, { REGION: 'eu-west-1' });
  });

  it('the trust store form holds no expanded value, and a changed value still shows as a change', () => {
    const before = server({ command: 'node', args: ['srv.js', 'pos=${GH_TOKEN}'], cwd: '/ws/app/${REGION}' });
    const stored = storedLaunch(before.launch, TEST_DIGEST);
    const text = JSON.stringify(stored);
    assert.ok(!text.includes(TOKEN) && !text.includes('eu-west-1'), text);
    assert.equal(stored.expandedVars, undefined, 'the values are not stored');
    assert.deepEqual(storedLaunch(stored, TEST_DIGEST), stored, 'idempotent');
    const after = server({ command: 'node', args: ['srv.js', 'pos=${GH_TOKEN}'], cwd: '/ws/app/${REGION}' }, { ...env, GH_TOKEN: 'ghp_another0123456789' });
    assert.notEqual(fingerprint(before.launch), fingerprint(after.launch));
    const changes = launchDiff(stored, after.launch, TEST_DIGEST);
    assert.ok(changes.length > 0, 'another token behind the *** is a change');
    assert.ok(!JSON.stringify(changes).includes('ghp_'), JSON.stringify(changes));
  });

  it('the trust prompt masks them and names the variables they came from', () => {
    const stdio = server({ command: 'node', args: ['srv.js', 'pos=${GH_TOKEN}'] });
    const flags = [{ id: 'outside-workspace' as const, reason: 'outside', detail: `script pos=${TOKEN}` }];
    const { detail } = buildTrustPrompt([{ server: stdio, decision: { state: 'needsTrust', reason: 'new' }, flags, shadows: [] }]);
    assert.ok(!detail.includes(TOKEN), detail);
    assert.match(detail, /^⚠ outside-workspace: outside \(script pos=\*\*\*\)$/m);
    assert.match(detail, /^Command: node srv\.js 'pos=\*\*\*'$/m);
    assert.match(detail, /^From your environment: GH_TOKEN=\*\*\*$/m);
  });
});
