// Each host's `${…}` syntax, translated into ours. A reference we cannot expand the same way makes the
// whole server untranslatable (never a guess): the reason names the reference.

/** How a host expands `${…}` in its values. */
export type VariableDialect =
  /** No expansion at all: `${` is literal text there, and we have no escape for it. */
  | 'literal'
  /** Claude Code: `${VAR}` and `${VAR:-default}` from the environment. */
  | 'claude'
  /** VS Code: `${env:VAR}`, `${input:id}`, `${workspaceFolder}`, `${userHome}` (and more we do not expand). */
  | 'vscode'
  /** Cursor: `${env:VAR}`, `${userHome}`, `${workspaceFolder}` (and more we do not expand). */
  | 'cursor'
  /** Windsurf: `${env:VAR}` (and `${file:…}`, which we do not expand). */
  | 'windsurf';

/** A value in our syntax, or why it has none. */
export type Translation = { ok: true; value: string } | { ok: false; reason: string };

const REFERENCE = /\$\{([^{}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DEFAULTED = /^([A-Za-z_][A-Za-z0-9_]*):-[\s\S]*$/;
// Names our syntax gives a meaning of its own: a Claude Code `${userHome}` is an environment variable.
const OURS = new Set(['userHome', 'workspaceFolder', 'extensionPath']);

const DIALECT_NAMES: Record<VariableDialect, string> = {
  literal: 'this host does not expand variables, so it is literal text, and Switchboard would expand it',
  claude: 'Claude Code expands only ${VAR} and ${VAR:-default}',
  vscode: 'Switchboard expands only ${env:…}, ${input:…}, ${workspaceFolder} and ${userHome} of VS Code\'s variables',
  cursor: 'Switchboard expands only ${env:…}, ${workspaceFolder} and ${userHome} of Cursor\'s variables',
  windsurf: 'Switchboard expands only ${env:…} of Windsurf\'s variables',
};

/** Translates one value from a host's variable syntax into ours. */
export function translateVariables(text: string, dialect: VariableDialect): Translation {
  let failure: string | undefined;
  const value = text.replace(REFERENCE, (token: string, inner: string) => {
    const translated = failure === undefined ? translateReference(inner, dialect) : undefined;
    if (translated === undefined) {
      failure ??= `${token}: ${DIALECT_NAMES[dialect]}`;
      return token;
    }
    return translated;
  });
  return failure === undefined ? { ok: true, value } : { ok: false, reason: failure };
}

function translateReference(inner: string, dialect: VariableDialect): string | undefined {
  switch (dialect) {
    case 'literal':
      return undefined;
    case 'claude':
      if (ENV_NAME.test(inner)) return OURS.has(inner) ? `\${env:${inner}}` : `\${${inner}}`;
      return DEFAULTED.test(inner) && !OURS.has(DEFAULTED.exec(inner)![1]) ? `\${${inner}}` : undefined;
    case 'vscode':
      if (inner.startsWith('input:') && inner.length > 'input:'.length) return `\${${inner}}`;
      return envOrPlace(inner, ['workspaceFolder', 'userHome']);
    case 'cursor':
      return envOrPlace(inner, ['workspaceFolder', 'userHome']);
    case 'windsurf':
      return envOrPlace(inner, []);
  }
}

function envOrPlace(inner: string, places: string[]): string | undefined {
  if (inner.startsWith('env:') && ENV_NAME.test(inner.slice('env:'.length))) return `\${${inner}}`;
  return places.includes(inner) ? `\${${inner}}` : undefined;
}
