import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildEnvironment, mergePath, parseEnvFile, readEnvFile, ServerEnvironment } from '../../src/node/process/environment';
import { extractLoginShellPath, looksGuiStarted, resolveLoginShellPath } from '../../src/node/process/loginShellPath';

const posix = process.platform !== 'win32';

describe('node environment', () => {
  describe('buildEnvironment', () => {
    const base = { HOME: '/home/ada', PATH: '/usr/bin:/bin', LANG: 'en_US.UTF-8', GONE: undefined };

    it('inherits the base environment and drops undefined values', () => {
      assert.deepEqual(buildEnvironment({ base, platform: 'linux' }), { HOME: '/home/ada', PATH: '/usr/bin:/bin', LANG: 'en_US.UTF-8' });
    });

    it("appends the entry's PATH to the inherited PATH instead of replacing it", () => {
      const env = buildEnvironment({ base, env: { PATH: '/opt/tool/bin', API_KEY: 'k' }, platform: 'linux' });
      assert.equal(env.PATH, '/usr/bin:/bin:/opt/tool/bin');
      assert.equal(env.API_KEY, 'k');
    });

    it('does not repeat folders already on PATH (e.g. an entry that wrote "/opt/bin:${PATH}")', () => {
      const env = buildEnvironment({ base, env: { PATH: '/opt/bin:/usr/bin:/bin/' }, platform: 'linux' });
      assert.equal(env.PATH, '/usr/bin:/bin:/opt/bin');
    });

    it('lets env win over envFile, and appends the PATH of envFile when the entry has none', () => {
      const env = buildEnvironment({
        base,
        envFile: { TOKEN: 'from-file', ONLY_FILE: '1', PATH: '/file/bin' },
        env: { TOKEN: 'from-entry', LANG: 'C' },
        platform: 'linux',
      });
      assert.deepEqual(env, { HOME: '/home/ada', PATH: '/usr/bin:/bin:/file/bin', LANG: 'C', TOKEN: 'from-entry', ONLY_FILE: '1' });
    });

    it("uses the entry's PATH, not the envFile's, when both have one", () => {
      const env = buildEnvironment({ base, envFile: { PATH: '/file/bin' }, env: { PATH: '/entry/bin' }, platform: 'linux' });
      assert.equal(env.PATH, '/usr/bin:/bin:/entry/bin');
    });

    it("puts the login shell's PATH first and keeps inherited folders it lacks", () => {
      const env = buildEnvironment({ base: { PATH: '/usr/bin:/bin:/snap/bin' }, loginShellPath: '/home/ada/.nvm/versions/node/v22/bin:/usr/bin:/bin', env: { PATH: '/x' }, platform: 'darwin' });
      assert.equal(env.PATH, '/home/ada/.nvm/versions/node/v22/bin:/usr/bin:/bin:/snap/bin:/x');
    });

    it('sets PATH when nothing was inherited', () => {
      assert.equal(buildEnvironment({ base: {}, env: { PATH: '/a:/b' }, platform: 'linux' }).PATH, '/a:/b');
    });

    it('on Windows treats names case-insensitively and keeps the inherited spelling', () => {
      const env = buildEnvironment({
        base: { Path: 'C:\\Windows;C:\\Program Files\\nodejs\\', SystemRoot: 'C:\\Windows' },
        env: { PATH: 'C:\\tools;c:\\program files\\nodejs', SYSTEMROOT: 'D:\\Win' },
        platform: 'win32',
      });
      assert.deepEqual(env, { Path: 'C:\\Windows;C:\\Program Files\\nodejs\\;C:\\tools', SystemRoot: 'D:\\Win' });
    });

    it('on POSIX treats a variable called "Path" as an ordinary variable', () => {
      const env = buildEnvironment({ base, env: { Path: '/not/the/path' }, platform: 'linux' });
      assert.equal(env.PATH, '/usr/bin:/bin');
      assert.equal(env.Path, '/not/the/path');
    });
  });

  describe('mergePath', () => {
    it('keeps order, drops empty entries and duplicates', () => {
      assert.equal(mergePath('/a::/b', '/b:/c:/a/', 'linux'), '/a:/b:/c');
      assert.equal(mergePath(undefined, '/a', 'linux'), '/a');
      assert.equal(mergePath('/', '/', 'linux'), '/');
    });
  });

  describe('parseEnvFile (dotenv format)', () => {
    it('reads KEY=VALUE lines, quotes, comments, the export prefix and empty values', () => {
      const text = [
        '# a comment',
        'PLAIN=value',
        'export EXPORTED=yes',
        'export  SPACED=1',
        '  INDENTED = padded  ',
        'DOUBLE="a # not a comment"',
        "SINGLE='$HOME stays literal'",
        'INLINE=value # comment',
        'EMPTY=',
        'URL=https://example.test/?a=1&b=2',
        'JSON={"a":1}',
        'NEWLINE="one\\ntwo"',
        "RAW='one\\ntwo'",
        'MULTI="first',
        'second"',
        'DUP=1',
        'DUP=2',
        'not a variable line',
      ].join('\n');
      assert.deepEqual(parseEnvFile(text), {
        PLAIN: 'value',
        EXPORTED: 'yes',
        SPACED: '1',
        INDENTED: 'padded',
        DOUBLE: 'a # not a comment',
        SINGLE: '$HOME stays literal',
        INLINE: 'value',
        EMPTY: '',
        URL: 'https://example.test/?a=1&b=2',
        JSON: '{"a":1}',
        NEWLINE: 'one\ntwo',
        RAW: 'one\\ntwo',
        MULTI: 'first\nsecond',
        DUP: '2',
      });
    });

    it('handles CRLF line endings and a byte order mark', () => {
      assert.deepEqual(parseEnvFile('\uFEFFA=1\r\nB="two"\r\n'), { A: '1', B: 'two' });
    });

    it('returns nothing for an empty file', () => {
      assert.deepEqual(parseEnvFile(''), {});
    });
  });

  describe('ServerEnvironment.resolve', () => {
    let dir: string;
    beforeEach(() => { dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-env-'))); });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    const environment = (home: string) => new ServerEnvironment({ baseEnv: { PATH: '/usr/bin', TERM: 'xterm' }, homeDir: home, platform: 'linux' });

    it('reads a relative envFile from the workspace folder; env wins over it', async () => {
      fs.writeFileSync(path.join(dir, '.env'), 'TOKEN=file\nOTHER=2\nPATH=/file/bin\n');
      const resolved = await environment('/home/ada').resolve({ folder: dir, launch: { env: { TOKEN: 'entry' }, envFile: '.env' } });
      assert.deepEqual(resolved, {
        cwd: dir,
        env: { PATH: '/usr/bin:/file/bin', TERM: 'xterm', TOKEN: 'entry', OTHER: '2' },
        fromEnvFile: { TOKEN: 'file', OTHER: '2', PATH: '/file/bin' },
      });
    });

    it('defaults cwd to the workspace folder, else the home folder; a relative cwd is taken from the folder', async () => {
      const env = environment('/home/ada');
      assert.equal((await env.resolve({ folder: dir, launch: { env: {} } })).cwd, dir);
      assert.equal((await env.resolve({ launch: { env: {} } })).cwd, '/home/ada');
      assert.equal((await env.resolve({ folder: dir, launch: { env: {}, cwd: 'sub' } })).cwd, path.join(dir, 'sub'));
      assert.equal((await env.resolve({ folder: dir, launch: { env: {}, cwd: '/abs' } })).cwd, '/abs');
    });

    it('rejects with a clear message when the envFile is missing or a folder', async () => {
      await assert.rejects(environment(dir).resolve({ folder: dir, launch: { env: {}, envFile: 'nope.env' } }), {
        message: `envFile not found: ${path.join(dir, 'nope.env')} (create it, or remove "envFile" from the server's entry)`,
      });
      await assert.rejects(readEnvFile(dir), { message: `envFile is a folder, not a file: ${dir}` });
    });
  });

  describe('login shell PATH', () => {
    const GUI_ENV = { PATH: '/usr/bin:/bin', HOME: '/home/ada' };

    it('looks GUI-started without TERM and SHLVL, never on Windows', () => {
      assert.equal(looksGuiStarted(GUI_ENV, 'darwin'), true);
      assert.equal(looksGuiStarted(GUI_ENV, 'linux'), true);
      assert.equal(looksGuiStarted({ ...GUI_ENV, TERM: 'xterm-256color' }, 'darwin'), false);
      assert.equal(looksGuiStarted({ ...GUI_ENV, SHLVL: '1' }, 'linux'), false);
      assert.equal(looksGuiStarted(GUI_ENV, 'win32'), false);
    });

    it('finds the PATH between the markers despite banners around it', () => {
      const out = 'Welcome!\nnvm: using v22\n__SWITCHBOARD_PATH_START__/a:/b__SWITCHBOARD_PATH_END__logout\n';
      assert.equal(extractLoginShellPath(out), '/a:/b');
      assert.equal(extractLoginShellPath('no markers'), undefined);
      assert.equal(extractLoginShellPath('__SWITCHBOARD_PATH_START____SWITCHBOARD_PATH_END__'), undefined);
      assert.equal(extractLoginShellPath('__SWITCHBOARD_PATH_START__/a\n/b__SWITCHBOARD_PATH_END__'), undefined);
    });

    it('asks the login shell once, merges its PATH first, and only when GUI-started or forced', async () => {
      let asked = 0;
      const loginShellPath = async () => { asked++; return '/opt/homebrew/bin:/usr/bin'; };
      const gui = new ServerEnvironment({ baseEnv: GUI_ENV, platform: 'darwin', homeDir: '/home/ada', loginShellPath });
      const first = await gui.resolve({ launch: { env: {} } });
      await gui.resolve({ launch: { env: { PATH: '/x' } } });
      assert.equal(first.env.PATH, '/opt/homebrew/bin:/usr/bin:/bin');
      assert.equal(asked, 1);

      await new ServerEnvironment({ baseEnv: { ...GUI_ENV, TERM: 'xterm' }, platform: 'darwin', loginShellPath }).resolve({ launch: { env: {} } });
      await new ServerEnvironment({ baseEnv: GUI_ENV, platform: 'darwin', loginShell: 'never', loginShellPath }).resolve({ launch: { env: {} } });
      assert.equal(asked, 1);
      await new ServerEnvironment({ baseEnv: { ...GUI_ENV, TERM: 'xterm' }, platform: 'linux', loginShell: 'always', loginShellPath }).resolve({ launch: { env: {} } });
      assert.equal(asked, 2);
    });

    it('keeps the process PATH when the login shell fails, and says why in debug', async () => {
      const debug: string[] = [];
      const env = new ServerEnvironment({
        baseEnv: GUI_ENV, platform: 'linux', homeDir: '/home/ada', debug: (m) => debug.push(m),
        loginShellPath: () => Promise.reject(new Error('boom')),
      });
      assert.equal((await env.resolve({ launch: { env: {} } })).env.PATH, '/usr/bin:/bin');
      assert.deepEqual(debug, ['login shell PATH not used: boom']);
    });

    (posix ? describe : describe.skip)('with a fake shell', function () {
      this.timeout(10_000);
      let dir: string;
      let marker: string;
      beforeEach(() => {
        marker = `sbshell-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
        dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `${marker}-`)));
      });
      afterEach(async () => {
        const running = () => execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' })
          .split('\n').filter((line) => line.includes(marker) && !/^\s*\d+\s+Z/.test(line));
        let left = running();
        // A killed process is gone a moment after the signal, not at once.
        for (let i = 0; i < 20 && left.length > 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          left = running();
        }
        fs.rmSync(dir, { recursive: true, force: true });
        for (const line of left) try { process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL'); } catch { /* gone */ }
        assert.deepEqual(left, [], 'the fake shell was left running');
      });

      function fakeShell(body: string): string {
        const file = path.join(dir, 'fake-shell');
        fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
        return file;
      }

      it('runs the shell with -ilc and reads PATH from its noisy output', async () => {
        const shell = fakeShell([
          'echo "Last login: today"',
          '[ "$1" = "-ilc" ] || exit 9',
          'PATH="/home/ada/.nvm/versions/node/v22/bin:$PATH"; export PATH',
          'eval "$2"',
          'echo "bye"',
        ].join('\n'));
        const found = await resolveLoginShellPath({ shell, env: { PATH: '/usr/bin:/bin' } });
        assert.equal(found, '/home/ada/.nvm/versions/node/v22/bin:/usr/bin:/bin');
      });

      it('gives up after the timeout, kills the shell, and never throws', async () => {
        const shell = fakeShell('while :; do sleep 0.05; done');
        const debug: string[] = [];
        const start = Date.now();
        const found = await resolveLoginShellPath({ shell, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 200, debug: (m) => debug.push(m) });
        const ms = Date.now() - start;
        assert.equal(found, undefined);
        assert.ok(ms >= 190 && ms < 1500, `took ${ms} ms`);
        assert.deepEqual(debug, [`login shell PATH not used: ${shell} -ilc did not answer within 200 ms`]);
      });

      it('returns undefined for a shell that prints no PATH or does not exist', async () => {
        const debug: string[] = [];
        assert.equal(await resolveLoginShellPath({ shell: fakeShell('exit 1'), env: {}, debug: (m) => debug.push(m) }), undefined);
        assert.equal(await resolveLoginShellPath({ shell: path.join(dir, 'no-such-shell'), env: {}, debug: (m) => debug.push(m) }), undefined);
        assert.match(debug[0], /printed no PATH \(exit 1\)$/);
        assert.match(debug[1], /could not be started: .*ENOENT/);
      });

      it('ServerEnvironment uses $SHELL by default', async () => {
        const shell = fakeShell('PATH="/from/login/shell:$PATH"; export PATH; eval "$2"');
        const env = new ServerEnvironment({ baseEnv: { PATH: '/usr/bin', SHELL: shell }, platform: 'linux', homeDir: dir });
        assert.equal((await env.resolve({ launch: { env: {} } })).env.PATH, '/from/login/shell:/usr/bin');
      });
    });
  });
});
