// "Clear Stored Inputs" forgets this workspace's `${input:…}` values. Servers that use them keep
// running with what they were started with; the next start of one asks again.
import * as vscode from 'vscode';
import type { ConfigSnapshot } from '../../core/config';
import { inputsNeededBy } from '../../core/config/inputs';
import type { EffectiveServer, InputDefinition } from '../../core/config/types';
import { registerReportingCommand } from '../reportingCommand';
import type { InputPrompt, InputPromptRequest, WorkspaceInputs } from './workspaceInputs';
import { notifyInfo } from '../ui/notify';

export const INPUT_COMMANDS = {
  clear: 'switchboard.clearInputs',
  /**
   * Internal, registered only under an extension test run: answers the next
   * prompts from a script instead of an input box (the extension-host tests cannot type into a quick
   * input). Argument `{ answers: { [id]: value | null } }` (null cancels), `{ observe: true }` to keep
   * the real prompt but record what it is asked, or nothing to restore the real prompt; returns the
   * prompts asked since the previous call.
   */
  scriptPrompt: '_switchboard.scriptInputPrompt',
} as const;

export interface InputCommandDeps {
  inputs: WorkspaceInputs;
  config: { readonly current: ConfigSnapshot };
  log: vscode.LogOutputChannel;
  /** Whether the internal script command is registered. */
  testing: boolean;
}

export function registerInputCommands(deps: InputCommandDeps): vscode.Disposable {
  const { inputs, config, log } = deps;
  const disposables: vscode.Disposable[] = [
    registerReportingCommand(INPUT_COMMANDS.clear, async () => {
      const cleared = await inputs.clear();
      const message = clearedMessage(cleared, config.current.servers);
      log.info(`cleared stored inputs of this workspace: ${cleared.length === 0 ? 'none were stored' : cleared.join(', ')}`);
      void notifyInfo(message);
      return cleared;
    }, deps),
  ];
  if (deps.testing) {
    let asked: InputPromptRequest[] = [];
    let real: InputPrompt | undefined;
    disposables.push(vscode.commands.registerCommand(INPUT_COMMANDS.scriptPrompt, (script?: { answers?: Record<string, string | null>; observe?: boolean }) => {
      const seen = asked.map(({ id, serverId }) => ({ id, serverId }));
      asked = [];
      if (script?.answers === undefined && script?.observe !== true) {
        if (real) inputs.usePrompt(real);
        real = undefined;
        return seen;
      }
      const answers = { ...script.answers };
      const previous = inputs.usePrompt({
        ask: async (request, token) => {
          asked.push(request);
          if (script.observe === true) return (real ?? previous).ask(request, token);
          const answer = answers[request.id];
          return answer === null || answer === undefined ? undefined : answer;
        },
      });
      real ??= previous;
      return seen;
    }));
  }
  return vscode.Disposable.from(...disposables);
}

/** The confirmation after clearing: which values went, and what happens to the servers using them. */
export function clearedMessage(cleared: readonly string[], servers: readonly EffectiveServer[]): string {
  if (cleared.length === 0) return 'No input values are stored for this workspace.';
  const users = servers.filter((server) => inputsNeededBy(server).some((id) => cleared.includes(id))).map((server) => server.id);
  const list = cleared.map((id) => `\${input:${id}}`).join(', ');
  const plural = cleared.length === 1 ? '' : 's';
  const running = users.length > 0
    ? ` Servers that use ${plural ? 'them' : 'it'} (${users.join(', ')}) are not restarted: one that runs keeps the value it was started with.`
    : '';
  return `Forgot the stored value${plural} of ${list} for this workspace.${running} You will be asked again the next time a server that uses ${plural ? 'them' : 'it'} starts.`;
}

/** The `inputs` entry declaring `id` for a server: from the server's own file first, else from any file. */
export function inputDefinitionOf(snapshot: ConfigSnapshot, server: EffectiveServer, id: string): InputDefinition | undefined {
  const own = snapshot.layers.find((layer) => layer.spec.file === server.source.file)?.inputs.find((input) => input.id === id);
  return own ?? snapshot.inputs.find((input) => input.id === id);
}
