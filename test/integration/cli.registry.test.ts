// `switchboard registry search` against the local fixture registry: the servers whose names match, each
// way to install them as the whole entry, the JSON contract, paging by cursor, and an unreachable or
// wrong registry as a clear error with exit 1. Nothing here touches the network.
import * as assert from 'node:assert/strict';
import { runCliAsync, startFixtureRegistry } from './fixtureRegistry';
import { requireBuiltCli } from './support';

interface SearchJson {
  servers: { name: string; registryName: string; publisher: string; version: string; transports: string[]; options: { label: string; entry?: { command?: string; args?: string[]; url?: string }; reason?: string; needs: string[] }[] }[];
  nextCursor?: string;
  problems: string[];
}

describe('registry search (built CLI, local fixture registry)', function () {
  this.timeout(20000);
  let registry: { url: string; stop: () => Promise<void> };
  before(async () => {
    requireBuiltCli();
    registry = await startFixtureRegistry();
  });
  after(async () => registry?.stop());

  it('prints the matching servers with their whole command lines and what they need', async () => {
    const result = await runCliAsync(['registry', 'search', 'weather', '--registry', registry.url]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^io\.github\.example-org\/weather 1\.4\.2\n {2}Forecasts and current conditions from OpenWeatherMap\n {2}publisher: io\.github\.example-org · transport: stdio · repository: https:\/\/github\.com\/example-org\/weather-mcp\n/);
    assert.ok(result.stdout.includes('"weather": stdio npx -y @example-org/weather-mcp@1.4.2 --units metric\n      env: OPENWEATHER_API_KEY\n      needs: npx on the PATH; OPENWEATHER_API_KEY (secret, required)'), result.stdout);
    assert.ok(result.stdout.includes('io.github.example-org/old-weather 0.1.0 (deprecated)'));
    assert.ok(!result.stdout.includes('tickets'), 'only names containing the query');
  });

  it('--json gives the gallery items, and the cursor pages on', async () => {
    const first = await runCliAsync(['registry', 'search', '--registry', registry.url, '--limit', '2', '--json']);
    assert.equal(first.status, 0, first.stderr);
    const page = JSON.parse(first.stdout) as SearchJson;
    assert.deepEqual(page.servers.map((server) => server.registryName), ['io.github.example-org/weather', 'io.github.example-org/weather-python']);
    assert.ok(page.nextCursor);
    const tickets = JSON.parse((await runCliAsync(['registry', 'search', 'tickets', '--registry', registry.url, '--json'])).stdout) as SearchJson;
    assert.deepEqual(tickets.servers[0].options.map((option) => option.entry?.url ?? option.entry?.command), ['docker', 'https://mcp.example.com/${input:tickets-url-tenant}/mcp', 'https://mcp.example.com/sse']);
    const rest = JSON.parse((await runCliAsync(['registry', 'search', '--registry', registry.url, '--limit', '2', '--cursor', page.nextCursor!, '--json'])).stdout) as SearchJson;
    assert.deepEqual(rest.servers.map((server) => server.registryName), ['com.example/tickets', 'io.github.example-org/notes-dotnet']);
    const dotnet = rest.servers[1].options[0];
    assert.equal(dotnet.entry, undefined);
    assert.match(dotnet.reason!, /a nuget package cannot be installed/);
  });

  it('an entry that does not fit is named, the rest still printed', async () => {
    const all = JSON.parse((await runCliAsync(['registry', 'search', '--registry', registry.url, '--json'])).stdout) as SearchJson;
    assert.equal(all.servers.length, 5);
    assert.equal(all.problems.length, 1);
    assert.match(all.problems[0], /^servers\[5\] left out: name:/);
  });

  it('a registry that is not there, or answers something else, exits 1 with the URL and the reason', async () => {
    const missing = await runCliAsync(['registry', 'search', 'x', '--registry', `${registry.url}/nothing-here`]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /the registry at http:\/\/127\.0\.0\.1:\d+\/nothing-here\/v0\/servers\?search=x&limit=30&version=latest answered 404/);
    const usage = await runCliAsync(['registry', 'find', 'x']);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /unknown subcommand 'find'/);
  });
});
