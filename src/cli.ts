// The headless CLI: the same config and lifecycle core as the extension, without VS Code. Thin on
// purpose: this file only dispatches; each subcommand is one entry of the `commands` table, in src/cli/.
import { addCommand, addJsonCommand, removeCommand } from './cli/add';
import { callCommand } from './cli/call';
import { codeCommand } from './cli/code';
import { parseArgs, PROGRAM, UsageError, type Command, type Io } from './cli/command';
import { configCommand } from './cli/config';
import { decideCommand } from './cli/decide';
import { importCommand } from './cli/import';
import { registryCommand } from './cli/registry';
import { conformanceCommand } from './cli/conformance';
import { previewCommand } from './cli/preview';
import { searchToolsCommand } from './cli/searchTools';
import { signaturesCommand } from './cli/signatures';
import { statusCommand } from './cli/status';
import { toolsCommand } from './cli/tools';
import { trustCommand } from './cli/trust';

const commands: Command[] = [configCommand, statusCommand, toolsCommand, callCommand, codeCommand, trustCommand, decideCommand, previewCommand, signaturesCommand, searchToolsCommand, conformanceCommand, importCommand, addCommand, addJsonCommand, removeCommand, registryCommand];

function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `Run '${PROGRAM} <command> --help' for a command's options.`,
    '',
  ].join('\n');
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (name === undefined) throw new UsageError('missing command');
    if (name === '-h' || name === '--help' || name === 'help') {
      io.out(mainHelp());
      return 0;
    }
    const command = commands.find((c) => c.name === name);
    if (command === undefined) throw new UsageError(`unknown command '${name}'`);
    const args = parseArgs(command, rest);
    if (args === 'help') {
      io.out(command.help);
      return 0;
    }
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const hint = error.command === undefined ? `${PROGRAM} --help` : `${PROGRAM} ${error.command} --help`;
      io.err(`${PROGRAM}: ${error.message}\nRun '${hint}' for usage.\n`);
      return 2;
    }
    io.err(`${PROGRAM}: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    return 1;
  }
}

/** Time allowed, after the command finished, for handles it left open (sockets kept alive) to close by themselves. */
const EXIT_GRACE_MS = 1000;

if (require.main === module) {
  void main(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
  }).then((code) => {
    process.exitCode = code;
    // Every server was stopped and awaited; whatever still holds the event loop is not worth waiting for.
    setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
  });
}
