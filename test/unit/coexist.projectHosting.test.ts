// Who hosts the servers of a workspace's .mcp.json: the overlap with VS Code's own MCP, and the effect of
// the person's choice (or of none yet) as one plan — asked once, VS Code's copy turned off through its
// chat.mcp.access at workspace scope, or the servers left to VS Code with the reason shown.
import * as assert from 'node:assert/strict';
import {
  HOSTING_ANSWERS, HOSTING_DEFAULT, LEFT_TO_VSCODE, NO_HOSTING_RECORD, VSCODE_ACCESS_KEY, VSCODE_LOCKED, hostingDefaultNotice, hostingQuestion, names,
  planProjectHosting, projectServerOverlap,
  type HostingPlan, type HostingRecord, type VscodeMcpAccessFacts, type VscodeMcpSettings,
} from '../../src/core/coexist';
import { makeServer } from './helpers/lifecycle';

const memory = makeServer('memory', { scope: 'project', folder: '/ws' }, { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
const files = makeServer('files', { scope: 'project', folder: '/ws' }, { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/ws'] });
const off = makeServer('off', { scope: 'project', folder: '/ws', disabled: true });
const mine = makeServer('mine', { scope: 'user' });
const local = makeServer('private', { scope: 'local', folder: '/ws' });
const SERVERS = [memory, files, off, mine, local];

const ALL: VscodeMcpAccessFacts = { effective: 'all', withoutWorkspace: 'all', locked: false };
/** VS Code's copy turned off by Switchboard: the workspace's own value is "registry". */
const TURNED_OFF: VscodeMcpAccessFacts = { effective: 'registry', workspace: 'registry', withoutWorkspace: 'all', locked: false };
/** A policy decides: "all", whatever the workspace says. */
const POLICY_ALL: VscodeMcpAccessFacts = { effective: 'all', withoutWorkspace: 'all', locked: true };

function settings(access: VscodeMcpAccessFacts = ALL, more: Partial<VscodeMcpSettings> = {}): VscodeMcpSettings {
  return { readsRootMcpJson: true, access, denied: [], ...more };
}
const record = (more: Partial<HostingRecord> = {}): HostingRecord => ({ ...NO_HOSTING_RECORD, ...more });
const ids = (plan: HostingPlan): string[] => plan.overlap.map((server) => server.id);
const left = (plan: HostingPlan): Record<string, string> => Object.fromEntries(plan.leftToVscode);

describe('coexistence: who hosts the servers of .mcp.json', () => {
  describe('projectServerOverlap', () => {
    it('is the project servers Switchboard would run that VS Code would run too', () => {
      assert.deepEqual(projectServerOverlap(SERVERS, settings()).map((s) => s.id), ['memory', 'files'],
        'not a "disabled" entry (only VS Code runs it), not user or local servers (VS Code does not read those files)');
    });

    it('leaves out a workspace skill\'s servers: VS Code\'s MCP does not start what a SKILL.md declares', () => {
      const skill = { ...makeServer('notes.memory', { scope: 'project', folder: '/ws' }), skill: { name: 'notes', server: 'memory', file: '/ws/.claude/skills/notes/SKILL.md' } };
      assert.deepEqual(projectServerOverlap([...SERVERS, skill], settings()).map((s) => s.id), ['memory', 'files']);
    });

    it('is empty when VS Code does not read the file, or its access is not "all"', () => {
      assert.deepEqual(projectServerOverlap(SERVERS, settings(ALL, { readsRootMcpJson: false })), []);
      assert.deepEqual(projectServerOverlap(SERVERS, settings(TURNED_OFF)), []);
      assert.deepEqual(projectServerOverlap(SERVERS, settings(TURNED_OFF), 'all').map((s) => s.id), ['memory', 'files'], 'judged by a given access');
    });

    it('leaves out a server VS Code denies', () => {
      assert.deepEqual(projectServerOverlap(SERVERS, settings(ALL, { denied: [{ serverName: 'memory' }] })).map((s) => s.id), ['files']);
    });
  });

  describe('planProjectHosting', () => {
    it('nothing chosen: asks once, changes nothing (both run what they run today)', () => {
      const first = planProjectHosting(SERVERS, settings(), record());
      assert.deepEqual([ids(first), left(first), first.access, first.ask], [['memory', 'files'], {}, 'keep', true]);
      const later = planProjectHosting(SERVERS, settings(), record({ asked: true }));
      assert.deepEqual([ids(later), left(later), later.access, later.ask], [['memory', 'files'], {}, 'keep', false], '"Later" is not asked again');
    });

    it('nothing chosen and no overlap: nothing to ask', () => {
      const plan = planProjectHosting([mine, local, off], settings(), record());
      assert.deepEqual([ids(plan), plan.ask], [[], false]);
      assert.equal(planProjectHosting(SERVERS, settings(ALL, { readsRootMcpJson: false }), record()).ask, false);
    });

    it('Switchboard chosen: VS Code\'s copy is turned off; nothing is held back', () => {
      const plan = planProjectHosting(SERVERS, settings(), record({ host: 'switchboard', asked: true }));
      assert.deepEqual([ids(plan), left(plan), plan.access, plan.ask, plan.problem], [['memory', 'files'], {}, 'turnOff', false, undefined]);
    });

    it('Switchboard chosen and VS Code\'s copy off: no overlap, nothing to do', () => {
      const plan = planProjectHosting(SERVERS, settings(TURNED_OFF), record({ host: 'switchboard', asked: true, wroteAccess: true }));
      assert.deepEqual([ids(plan), left(plan), plan.access, plan.ask], [[], {}, 'keep', false]);
    });

    it('Switchboard chosen, its setting since removed by someone: turned off again', () => {
      const plan = planProjectHosting(SERVERS, settings(ALL), record({ host: 'switchboard', asked: true, wroteAccess: true }));
      assert.equal(plan.access, 'turnOff');
    });

    it('Switchboard chosen but a policy decides chat.mcp.access: VS Code keeps them, Switchboard holds back and says why', () => {
      const plan = planProjectHosting(SERVERS, settings(POLICY_ALL), record({ host: 'switchboard', asked: true }));
      assert.deepEqual([left(plan), plan.access], [{ memory: VSCODE_LOCKED, files: VSCODE_LOCKED }, 'keep']);
      assert.match(plan.problem ?? '', /a policy sets chat\.mcp\.access to "all", so VS Code's copy of "memory" and "files" cannot be turned off/);
    });

    it('VS Code chosen: Switchboard holds the overlapping servers back with the reason, and never touches VS Code\'s settings', () => {
      const plan = planProjectHosting(SERVERS, settings(), record({ host: 'vscode', asked: true }));
      assert.deepEqual([left(plan), plan.access, plan.ask], [{ memory: LEFT_TO_VSCODE, files: LEFT_TO_VSCODE }, 'keep', false]);
      const denied = planProjectHosting(SERVERS, settings(ALL, { denied: [{ serverName: 'files' }] }), record({ host: 'vscode', asked: true }));
      assert.deepEqual(left(denied), { memory: LEFT_TO_VSCODE }, 'a server VS Code denies is Switchboard\'s: nobody else runs it');
    });

    it('VS Code chosen after Switchboard: Switchboard\'s own setting goes, and the servers are held back already (judged as VS Code will be)', () => {
      const plan = planProjectHosting(SERVERS, settings(TURNED_OFF), record({ host: 'vscode', asked: true, wroteAccess: true }));
      assert.deepEqual([ids(plan), left(plan), plan.access], [['memory', 'files'], { memory: LEFT_TO_VSCODE, files: LEFT_TO_VSCODE }, 'restore']);
    });

    it('a "registry" the person wrote themselves is theirs: never removed, and VS Code then runs none of them', () => {
      const theirs = planProjectHosting(SERVERS, settings(TURNED_OFF), record({ host: 'vscode', asked: true, wroteAccess: false }));
      assert.deepEqual([ids(theirs), left(theirs), theirs.access], [[], {}, 'keep']);
      const none = planProjectHosting(SERVERS, settings(TURNED_OFF), record());
      assert.deepEqual([none.access, none.ask], ['keep', false]);
    });

    it('a workspace value under a policy is nobody\'s to remove', () => {
      const locked: VscodeMcpAccessFacts = { effective: 'all', workspace: 'registry', withoutWorkspace: 'all', locked: true };
      const plan = planProjectHosting(SERVERS, settings(locked), record({ host: 'vscode', asked: true, wroteAccess: true }));
      assert.equal(plan.access, 'keep');
    });

    it('with no choice left, Switchboard\'s old value is removed and the overlap asked about again', () => {
      const plan = planProjectHosting(SERVERS, settings(TURNED_OFF), record({ wroteAccess: true }));
      assert.deepEqual([ids(plan), plan.access, plan.ask], [['memory', 'files'], 'restore', true]);
    });
  });

  describe('names', () => {
    it('reads as a person writes a list', () => {
      assert.equal(names([]), '');
      assert.equal(names([memory]), '"memory"');
      assert.equal(names([memory, files]), '"memory" and "files"');
      assert.equal(names([memory, files, mine]), '"memory", "files" and "mine"');
    });
  });
});

describe('coexistence: the hosting question in the trust moment', () => {
  it('says, before anything is written, which file and key each answer writes, and what closing it does', () => {
    const { message, detail } = hostingQuestion([memory, files], '/ws/.vscode/settings.json');
    assert.match(message, /VS Code's own MCP would also run "memory" and "files" from this workspace's \.mcp\.json/);
    const [switchboard, vscodeHosts, closed] = detail.split('\n\n');
    assert.ok(switchboard.startsWith(`${HOSTING_ANSWERS.switchboard}: writes "${VSCODE_ACCESS_KEY}": "registry" to /ws/.vscode/settings.json`), switchboard);
    assert.ok(vscodeHosts.startsWith(`${HOSTING_ANSWERS.vscode}: writes nothing`), vscodeHosts);
    assert.match(closed, /Closed without an answer, Switchboard hosts them \(the same chat\.mcp\.access is written\)/);
    assert.match(closed, /first chat message/);
  });

  it('the unanswered default is the safe choice: VS Code\'s copy off (Switchboard hosts, chat.mcp.access turned off)', () => {
    assert.equal(HOSTING_DEFAULT, 'switchboard');
    const plan = planProjectHosting(SERVERS, settings(), record({ host: HOSTING_DEFAULT }));
    assert.equal(plan.access, 'turnOff');
    assert.deepEqual(left(plan), {}, 'Switchboard holds nothing back');
    assert.match(hostingDefaultNotice([memory], '/ws/.vscode/settings.json'), /"chat\.mcp\.access": "registry" was written to \/ws\/\.vscode\/settings\.json/);
  });
});
