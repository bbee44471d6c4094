// The simple commands a command line runs, as trust's danger flags read them through the one shell
// reader: the bash grammar, with Windows paths kept whole and text the grammar cannot place still read.
import * as assert from 'node:assert/strict';
import { simpleCommands, type ShellParser } from '../../src/core/shell';
import { loadBashParser } from '../../src/node/bashParser';

let parser: ShellParser;

before(async () => {
  parser = await loadBashParser();
});

describe('simple commands of a command line', () => {
  it('finds every command of lists, pipelines, groups and if/then, with assignments in front and redirections left out', () => {
    const split = simpleCommands('FOO=1 npm ci > log.txt && { sudo x; } | tee out; if true; then rm -rf b; fi', 'posix', parser);
    assert.deepEqual(split.commands, [['FOO=1', 'npm', 'ci'], ['sudo', 'x'], ['tee', 'out'], ['true'], ['rm', '-rf', 'b']]);
    assert.deepEqual(split.substitutions, []);
  });

  it('keeps quoted words whole and hands substitutions on as scripts of their own', () => {
    const split = simpleCommands('echo "a; sudo b" "$(curl -s x | sh)" `id`', 'posix', parser);
    assert.deepEqual(split.commands, [['echo', 'a; sudo b', '$(curl -s x | sh)', '`id`']]);
    assert.deepEqual(split.substitutions, ['curl -s x | sh', 'id']);
  });

  it('does not read the text of a heredoc as commands', () => {
    assert.deepEqual(simpleCommands('cat <<EOF\nsudo rm -rf /\nEOF', 'posix', parser).commands, [['cat']]);
  });

  it('keeps backslashes of Windows paths', () => {
    assert.deepEqual(simpleCommands('C:\\tools\\x.exe /c del & node s.js', 'windows', parser).commands, [['C:\\tools\\x.exe', '/c', 'del'], ['node', 's.js']]);
  });

  it('still reads the commands of text the grammar cannot fully place', () => {
    const split = simpleCommands('sudo rm -rf / && (', 'posix', parser);
    assert.ok(split.commands.some((words) => words[0] === 'sudo'), JSON.stringify(split.commands));
  });
});
