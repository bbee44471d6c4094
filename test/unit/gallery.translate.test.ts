// The registry's answers read and translated into entries, from the recorded-shape fixture under
// test/fixtures/registry: each package type and remote as a whole command line or URL, values a person
// gives as ${input:…} (password inputs when secret), what cannot be installed said with the reason, and
// an entry of the answer that does not fit left out and named.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { galleryItem, readRegistryPage, searchUrl, type GalleryItem } from '../../src/core/gallery';

const FIXTURE = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'registry', 'servers.json');
const page = readRegistryPage(JSON.parse(fs.readFileSync(FIXTURE, 'utf8')));
const item = (name: string): GalleryItem => galleryItem(page.servers.find((server) => server.name === name)!);

describe('gallery: reading a registry answer', () => {
  it('keeps every server that fits and names the one that does not', () => {
    assert.deepEqual(page.servers.map((server) => server.name), [
      'io.github.example-org/weather', 'io.github.example-org/weather-python', 'com.example/tickets',
      'io.github.example-org/notes-dotnet', 'io.github.example-org/old-weather',
    ]);
    assert.equal(page.problems.length, 1);
    assert.match(page.problems[0], /^servers\[5\] left out: name: /);
    assert.equal(page.nextCursor, undefined);
    assert.equal(item('io.github.example-org/old-weather').status, 'deprecated');
  });

  it('refuses an answer that is not a server list, saying what came back', () => {
    assert.throws(() => readRegistryPage({ error: 'Not found' }), /not a server list \(expected \{"servers": \[\.\.\.\]\}, got an object with error\)/);
    assert.throws(() => readRegistryPage('<html>'), /got string/);
  });

  it('builds the search URL with the query, a limit, the latest versions and the cursor', () => {
    assert.equal(searchUrl('https://registry.example.com/', { search: ' weather ', limit: 30, cursor: 'abc' }), 'https://registry.example.com/v0/servers?search=weather&limit=30&version=latest&cursor=abc');
    assert.throws(() => searchUrl('file:///etc', { search: '', limit: 1 }), /starts with https:\/\//);
  });
});

describe('gallery: server.json to an entry', () => {
  it('an npm package: npx -y pkg@version, its defaulted argument, the secret asked as a password input', () => {
    const weather = item('io.github.example-org/weather');
    assert.equal(weather.name, 'weather');
    assert.equal(weather.publisher, 'io.github.example-org');
    assert.equal(weather.repository, 'https://github.com/example-org/weather-mcp');
    assert.deepEqual(weather.transports, ['stdio']);
    const [option] = weather.options;
    assert.deepEqual(option.entry, {
      type: 'stdio', command: 'npx', args: ['-y', '@example-org/weather-mcp@1.4.2', '--units', 'metric'],
      env: { OPENWEATHER_API_KEY: '${input:weather-OPENWEATHER_API_KEY}' },
    });
    assert.deepEqual(option.inputs, [{ id: 'weather-OPENWEATHER_API_KEY', type: 'promptString', description: 'Your OpenWeatherMap API key', password: true }]);
    assert.deepEqual(option.needs, ['npx on the PATH', 'OPENWEATHER_API_KEY (secret, required)']);
    assert.deepEqual(option.leftOut, ['WEATHER_CACHE_DIR: Where forecasts are cached']);
  });

  it('a PyPI package: uvx pkg==version with its required positional argument asked', () => {
    const [option] = item('io.github.example-org/weather-python').options;
    assert.deepEqual(option.entry, { type: 'stdio', command: 'uvx', args: ['weather-mcp==0.9.0', '${input:weather-python-city}'] });
    assert.deepEqual(option.inputs, [{ id: 'weather-python-city', type: 'promptString', description: 'The default city' }]);
    assert.equal(item('io.github.example-org/weather-python').repository, 'https://github.com/example-org/weather-mcp (python)');
  });

  it('an OCI image run by docker with its variables passed by name, and remotes with URL and header variables', () => {
    const tickets = item('com.example/tickets');
    assert.deepEqual(tickets.transports, ['stdio', 'streamable-http', 'sse']);
    const [image, http, sse] = tickets.options;
    assert.deepEqual(image.entry, {
      type: 'stdio', command: 'docker', args: ['run', '-i', '--rm', '-e', 'TICKETS_TOKEN', 'docker.io/example/tickets-mcp:2.0.0'],
      env: { TICKETS_TOKEN: '${input:tickets-TICKETS_TOKEN}' },
    });
    assert.deepEqual(http.entry, {
      type: 'http', url: 'https://mcp.example.com/${input:tickets-url-tenant}/mcp',
      headers: { Authorization: 'Bearer ${input:tickets-Authorization-token}' },
    });
    assert.deepEqual(http.inputs.map((input) => [input.id, input.password === true]), [['tickets-url-tenant', false], ['tickets-Authorization-token', true]]);
    assert.deepEqual(sse.entry, { type: 'sse', url: 'https://mcp.example.com/sse' });
    assert.deepEqual(sse.needs, []);
  });

  it('a package type it cannot run is listed with the reason, not guessed', () => {
    const [option] = item('io.github.example-org/notes-dotnet').options;
    assert.equal(option.entry, undefined);
    assert.match(option.reason!, /^a nuget package cannot be installed from the gallery \(npm, pypi and oci can\)/);
  });

  it('a package serving HTTP itself is not installed as if it were stdio', () => {
    const server = readRegistryPage({ servers: [{ server: { name: 'a/b', description: 'd', version: '1', packages: [{ registryType: 'npm', identifier: 'b', version: '1', transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp' } }] } }] }).servers[0];
    const [option] = galleryItem(server).options;
    assert.equal(option.entry, undefined);
    assert.match(option.reason!, /serves streamable-http on a port you start yourself/);
  });

  it('a registry name or title with a hidden character is refused, naming it, and installs no way', () => {
    const server = (name: string, title?: string) => galleryItem({
      name, description: '', version: '1.0.0', ...(title !== undefined ? { title } : {}), remotes: [{ type: 'streamable-http', url: 'https://x.example/mcp' }],
      packages: [{ registryType: 'npm', identifier: 'pkg' }],
    });
    for (const [name, title, named] of [
      ['io.github.x/wea\u200Bther', undefined, /U\+200B/], ['io.github.x\u202E/weather', undefined, /U\+202E/], ['io.github.x/wea$ther', undefined, /"\$" \(U\+0024\)/],
      ['io.github.x/weather', 'Weather\u2067 official', /the title "Weather\\u\{2067\} official" has U\+2067/], ['io.github.x/weather', 'Wetter\uFE0F', /U\+FE0F \(a variation selector\)/],
    ] as const) {
      const item = server(name, title);
      assert.equal(item.options.length, 2);
      for (const option of item.options) {
        assert.equal(option.entry, undefined, `${JSON.stringify(name)} ${JSON.stringify(title)}`);
        assert.match(option.reason ?? '', /^not installable: /);
        assert.match(option.reason ?? '', named);
      }
    }
    assert.ok(server('io.github.x/weather', 'Météo — prévisions').options.every((option) => option.entry !== undefined), 'a title in any script passes');
  });
});

