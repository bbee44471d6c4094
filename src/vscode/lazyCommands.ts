// Commands whose code loads on first use. Each id is registered at activation with a thin handler, so
// the command exists for menus, keybindings, links and other extensions from the start; the first call
// imports the module, which registers the real handlers in the thin ones' place, and is then handed on.
import * as vscode from 'vscode';

/** Imports a module and returns what registers its commands (every id given with it, no other). */
export type CommandsLoader = () => Promise<() => vscode.Disposable>;

export function lazyCommands(ids: readonly string[], load: CommandsLoader): vscode.Disposable {
  let thin: vscode.Disposable[] = ids.map((id) => vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    await realCommands();
    return vscode.commands.executeCommand(id, ...args);
  }));
  let loading: Promise<void> | undefined;
  let real: vscode.Disposable | undefined;
  let disposed = false;

  function realCommands(): Promise<void> {
    loading ??= load().then((register) => {
      if (disposed) return;
      // A command id can have one handler: the thin ones go just before the real ones come.
      for (const d of thin) d.dispose();
      thin = [];
      real = register();
    }, (error: unknown) => {
      loading = undefined; // the next call tries again
      throw error;
    });
    return loading;
  }

  return {
    dispose: () => {
      disposed = true;
      for (const d of thin) d.dispose();
      real?.dispose();
    },
  };
}
