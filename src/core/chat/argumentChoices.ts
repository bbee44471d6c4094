// The rows of the picker that asks for a prompt argument or a template variable: the server's
// suggestions first, so its best one is the default Enter takes, then what was typed. The typed row's
// label is only an icon: VS Code's quick pick sorts the rows whose label matches the typed text before
// the others (shortest first), so a label holding the typed text would sort above the server's longer
// suggestion ("Sal" above "Sales"); with no label text to match it stays below them.

/** One row: what it shows, and the value it stands for. */
export interface ArgumentChoice {
  readonly label: string;
  readonly value: string;
  readonly description: string;
}

/** The rows for `typed` and the server's `suggestions` (best first), in the order they are offered. */
export function argumentChoices(typed: string, suggestions: readonly string[]): ArgumentChoice[] {
  const fromServer = [...new Set(suggestions)].map((value): ArgumentChoice => ({ label: value, value, description: 'suggested by the server' }));
  if (typed === '' || suggestions.includes(typed)) return fromServer;
  return [...fromServer, { label: '$(edit)', value: typed, description: `${typed} — as typed` }];
}
