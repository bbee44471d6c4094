// Skills that bring their own servers: SKILL.md frontmatter read with its `mcpServers` validated by the
// config parser (problems at their place in SKILL.md, broken YAML included), where skills are looked
// for, and the idle stop of a skill's servers on an injected clock.
import * as assert from 'node:assert/strict';
import { mergeLayers } from '../../src/core/config/merge';
import type { LayerSpec } from '../../src/core/config/types';
import { parseSkillFile, parseSkillLayer, skillFolderName, skillLayerSpecs, SkillIdleStop } from '../../src/core/skills';
import { brief, HOME } from './helpers/config';
import { FakeClock } from './helpers/lifecycle';

const FILE = '/ws/app/.github/skills/release-notes/SKILL.md';
const spec: LayerSpec = { scope: 'project', format: 'skill', file: FILE, folder: '/ws/app', vars: { env: { GH_TOKEN: 'tok' }, userHome: HOME, workspaceFolder: '/ws/app' } };

const SKILL = `---
name: release-notes
description: Writes release notes from the merged pull requests.
mcpServers:
  github:
    command: npx
    args: [-y, "@modelcontextprotocol/server-github"]
    env:
      GITHUB_TOKEN: \${GH_TOKEN}
  docs:
    url: https://docs.example.com/mcp
---
# Release notes

1. List the pull requests merged since the last tag.
`;

describe('SKILL.md frontmatter', () => {
  it('reads the name, description, instructions and servers, as .mcp.json entries under <skill>.<server>', () => {
    const read = parseSkillFile({ ...spec, format: undefined }, SKILL, 'release-notes');
    assert.deepEqual(read.problems, []);
    assert.equal(read.skill?.name, 'release-notes');
    assert.equal(read.skill?.description, 'Writes release notes from the merged pull requests.');
    assert.equal(read.skill?.body, '# Release notes\n\n1. List the pull requests merged since the last tag.\n');
    assert.deepEqual(read.skill?.serverNames, ['github', 'docs']);
    const [github, docs] = read.servers;
    assert.equal(github.name, 'release-notes.github');
    assert.equal(github.scope, 'project');
    assert.deepEqual(github.skill, { name: 'release-notes', server: 'github', file: FILE });
    assert.equal(github.launch.command, 'npx');
    assert.deepEqual(github.launch.args, ['-y', '@modelcontextprotocol/server-github']);
    assert.equal(github.launch.env.GITHUB_TOKEN, 'tok');
    // The entry is located at its key in SKILL.md (line 5, "github").
    assert.deepEqual([github.source.line, github.source.column, github.source.file], [5, 3, FILE]);
    assert.equal(docs.launch.type, 'http');
    assert.equal(docs.launch.url, 'https://docs.example.com/mcp');
  });

  it('reports broken YAML as an error at its line and column, and the layer as unusable (its servers keep running)', () => {
    const broken = SKILL.replace('args: [-y, "@modelcontextprotocol/server-github"]', 'args: [-y, "@modelcontextprotocol/server-github"');
    const layer = parseSkillLayer(spec, { kind: 'text', text: broken });
    assert.equal(layer.usable, false);
    assert.deepEqual(layer.servers, []);
    assert.ok(layer.problems.length > 0);
    const [problem] = layer.problems;
    assert.equal(problem.code, 'skill-yaml');
    assert.equal(problem.severity, 'error');
    assert.equal(problem.file, FILE);
    assert.match(problem.message, /^The frontmatter is not valid YAML: /);
    // The position is in SKILL.md, counting the opening --- line: where the unclosed list runs into "env:".
    assert.equal(brief(problem), 'skill-yaml error 8:5-8:6');
  });

  it('reports an entry the config parser refuses at the entry\'s key in SKILL.md, keeping the good ones', () => {
    const bad = SKILL.replace('    url: https://docs.example.com/mcp', '    type: carrier-pigeon\n    url: https://docs.example.com/mcp');
    const read = parseSkillFile({ ...spec, format: undefined }, bad, 'release-notes');
    assert.deepEqual(read.servers.map((s) => s.name), ['release-notes.github']);
    assert.equal(read.problems.length, 1);
    assert.equal(read.problems[0].severity, 'error');
    assert.match(read.problems[0].message, /^Server "docs" of skill "release-notes": .*carrier-pigeon/);
    assert.deepEqual([read.problems[0].line, read.problems[0].column], [10, 3]);
  });

  it('reports a frontmatter that is never closed, one that is not a map, and an mcpServers that is not a map', () => {
    assert.equal(parseSkillLayer(spec, { kind: 'text', text: '---\nname: x\n' }).problems[0].code, 'skill-frontmatter-unclosed');
    assert.equal(parseSkillLayer(spec, { kind: 'text', text: '---\n- a\n- b\n---\n' }).problems[0].code, 'skill-frontmatter-type');
    const notMap = parseSkillLayer(spec, { kind: 'text', text: '---\nname: x\ndescription: y\nmcpServers: [a]\n---\n' });
    assert.deepEqual(notMap.problems.map((p) => [p.code, p.line]), [['skill-servers-type', 4]]);
  });

  it('takes the folder name when there is no name, and warns about a missing frontmatter or description', () => {
    const plain = parseSkillFile({ ...spec, format: undefined }, '# Just text\n', 'notes');
    assert.equal(plain.skill?.name, 'notes');
    assert.deepEqual(plain.problems.map((p) => p.code), ['skill-no-frontmatter']);
    const unnamed = parseSkillFile({ ...spec, format: undefined }, '---\nmcpServers:\n---\nText\n', 'notes');
    assert.equal(unnamed.skill?.name, 'notes');
    assert.deepEqual(unnamed.problems.map((p) => p.code), ['skill-description']);
    assert.equal(skillFolderName(FILE), 'release-notes');
  });

  it('refuses a skill name that could not be typed as /name', () => {
    const read = parseSkillFile({ ...spec, format: undefined }, '---\nname: "release notes"\ndescription: d\n---\n', 'x');
    assert.equal(read.skill, undefined);
    assert.deepEqual(read.problems.map((p) => [p.code, p.line]), [['skill-name', 2]]);
  });

  it('merges a workspace skill\'s servers as project servers that need trust, and a personal skill\'s as user servers', () => {
    const project = parseSkillLayer(spec, { kind: 'text', text: SKILL });
    const personal = parseSkillLayer({ scope: 'user', format: 'skill', file: `${HOME}/.claude/skills/notes/SKILL.md`, vars: { env: {}, userHome: HOME } },
      { kind: 'text', text: '---\nname: notes\ndescription: Notes.\nmcpServers:\n  memory:\n    command: npx\n    args: [-y, "@modelcontextprotocol/server-memory"]\n---\n' });
    const merged = mergeLayers([project, personal]);
    assert.deepEqual(merged.servers.map((s) => [s.id, s.scope, s.needsTrust, s.skill?.name]), [
      ['release-notes.docs', 'project', true, 'release-notes'],
      ['release-notes.github', 'project', true, 'release-notes'],
      ['notes.memory', 'user', false, 'notes'],
    ]);
  });
});

describe('skill locations', () => {
  it('looks in .github/skills, .claude/skills and .agents/skills of each folder, then ~/.copilot, ~/.claude and ~/.agents', () => {
    const found: Record<string, string[]> = {
      '/ws/app/.github/skills': ['release-notes'],
      '/ws/app/.claude/skills': ['b', 'a'],
      [`${HOME}/.claude/skills`]: ['notes'],
    };
    const specs = skillLayerSpecs({ folders: ['/ws/app'], userHome: HOME, env: {}, skillFolders: (dir) => found[dir] ?? [] });
    assert.deepEqual(specs.map((s) => [s.scope, s.format, s.file]), [
      ['project', 'skill', '/ws/app/.github/skills/release-notes/SKILL.md'],
      ['project', 'skill', '/ws/app/.claude/skills/a/SKILL.md'],
      ['project', 'skill', '/ws/app/.claude/skills/b/SKILL.md'],
      ['user', 'skill', `${HOME}/.claude/skills/notes/SKILL.md`],
    ]);
    assert.equal(specs[0].folder, '/ws/app');
  });
});

describe('skill idle stop', () => {
  function setup(idleMs = 60_000) {
    const clock = new FakeClock();
    const stopped: string[] = [];
    const idle = new SkillIdleStop({ clock, idleMs: () => idleMs, stop: (skill) => stopped.push(skill) });
    return { clock, stopped, idle };
  }

  it('stops a skill once it has been idle for the idle time after its last use', () => {
    const { clock, stopped, idle } = setup();
    const release = idle.hold('release-notes');
    clock.advance(5 * 60_000);
    assert.deepEqual(stopped, [], 'never idle while a turn holds it');
    release();
    clock.advance(59_999);
    assert.deepEqual(stopped, []);
    clock.advance(1);
    assert.deepEqual(stopped, ['release-notes']);
    assert.deepEqual(idle.active(), []);
  });

  it('starts the idle time over when the skill is used again, and waits for every hold', () => {
    const { clock, stopped, idle } = setup();
    idle.hold('a')();
    clock.advance(30_000);
    const first = idle.hold('a');
    const second = idle.hold('a');
    first();
    first();
    clock.advance(120_000);
    assert.deepEqual(stopped, [], 'a release called twice counts once');
    second();
    clock.advance(59_000);
    assert.deepEqual(stopped, []);
    clock.advance(1_000);
    assert.deepEqual(stopped, ['a']);
  });

  it('keeps skills apart, and forgets one without stopping it', () => {
    const { clock, stopped, idle } = setup(10_000);
    idle.hold('a')();
    idle.hold('b')();
    idle.forget('b');
    clock.advance(10_000);
    assert.deepEqual(stopped, ['a']);
    assert.deepEqual(clock.pending(), []);
  });
});
