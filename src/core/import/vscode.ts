// VS Code's `mcp.json` (the profile's and a folder's `.vscode/mcp.json`): `servers` and `inputs`, with
// VS Code's variables (we expand `${env:…}`, `${input:…}`, `${workspaceFolder}`, `${userHome}`).
import { objectAt, parseJsonSource, problemAt, unusable, valueAt } from './jsonSource';
import { emptyRead, readServerMap } from './serverMap';
import type { StandardDialect } from './standardEntry';
import type { HostReader, ImportedInput } from './types';

const DIALECT: StandardDialect = {
  variables: 'vscode',
  fields: ['type', 'command', 'args', 'env', 'envFile', 'cwd', 'url', 'headers'],
  notes: {
    dev: 'VS Code\'s watch-and-debug mode for server authors has no counterpart',
    gallery: 'where VS Code installed it from is not kept',
    version: 'where VS Code installed it from is not kept',
  },
  blockers: {
    sandboxEnabled: 'VS Code runs it in a sandbox that limits its files and network; Switchboard has no sandbox, so it would run with more access',
    sandbox: 'VS Code runs it in a sandbox that limits its files and network; Switchboard has no sandbox, so it would run with more access',
  },
};

const INPUT_TYPES = ['promptString', 'pickString'];

/** Reads one of VS Code's `mcp.json` files. */
export const readVscode: HostReader = (file, text) => {
  const source = parseJsonSource(file, text);
  if (Array.isArray(source)) return unusable(source);
  const read = emptyRead();
  const servers = objectAt(source, ['servers'], read.problems);
  if (servers !== undefined) readServerMap(read, servers, DIALECT, file);
  const inputs = valueAt(source, ['inputs']);
  if (inputs !== undefined) {
    if (!Array.isArray(inputs.value)) {
      read.problems.push(problemAt(source.index, inputs.node.offset, '"inputs" must be a list of input definitions'));
    } else {
      inputs.value.forEach((value, index) => {
        const input = readInput(value);
        if (input !== undefined) read.inputs.push(input);
        else read.problems.push(problemAt(source.index, inputs.node.children?.[index]?.offset ?? inputs.node.offset, `input ${index + 1} is not an object with an "id" and a "type" of ${INPUT_TYPES.join(' or ')}; not imported`));
      });
    }
  }
  return read;
};

function readInput(value: unknown): ImportedInput | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  if (typeof raw.id !== 'string' || raw.id === '' || typeof raw.type !== 'string' || !INPUT_TYPES.includes(raw.type)) return undefined;
  const input: ImportedInput = { id: raw.id, type: raw.type };
  if (typeof raw.description === 'string') input.description = raw.description;
  if (typeof raw.password === 'boolean') input.password = raw.password;
  if (typeof raw.default === 'string') input.default = raw.default;
  if (Array.isArray(raw.options) && raw.options.every((option) => typeof option === 'string')) input.options = raw.options as string[];
  return input;
}
