// The environment variables the trust prompt and the install review warn about: those that change which
// program runs, inject code into it, or make it run a command of their choosing. A warning list, not an
// approval rule: approvals allow only the inert variables of core/shell/inertVariables.ts.

/**
 * Environment variables that change which program runs, inject code into it, make it run a command of
 * their choosing (pagers, editors, askpass helpers, `LESSOPEN`), or change where a package runner
 * downloads from. Matched without regard to case, as Windows does; a trailing `*` matches a prefix.
 */
export const EXEC_VARIABLES: readonly string[] = [
  'PATH', 'PATHEXT', 'CDPATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_*', 'NODE_OPTIONS', 'NODE_PATH',
  'ELECTRON_RUN_AS_NODE', 'NPM_CONFIG_*', 'YARN_*', 'BUN_CONFIG_*',
  'PYTHONPATH', 'PYTHONHOME', 'PYTHONSTARTUP', 'PYTHONUSERBASE', 'PYTHONBREAKPOINT', 'PYTHONWARNINGS', 'PIP_*',
  'UV_INDEX', 'UV_INDEX_URL', 'UV_EXTRA_INDEX_URL', 'UV_DEFAULT_INDEX', 'UV_FIND_LINKS',
  'PERL5LIB', 'PERL5OPT', 'PERL5DB', 'RUBYOPT', 'RUBYLIB', 'BASH_ENV', 'ENV', 'ZDOTDIR', 'PROMPT_COMMAND', 'PS4', 'SHELLOPTS', 'BASHOPTS', 'SHELL',
  'GIT_*', 'SSH_ASKPASS', 'SUDO_ASKPASS',
  'PAGER', 'MANPAGER', 'SYSTEMD_PAGER', 'BAT_PAGER', 'LESS', 'LESSOPEN', 'LESSCLOSE', 'LESSKEY', 'LESSKEYIN', 'MORE',
  'EDITOR', 'VISUAL', 'FCEDIT', 'BROWSER', 'TAR_OPTIONS', 'RIPGREP_CONFIG_PATH',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'COMSPEC',
  'HOME', 'XDG_CONFIG_HOME', 'CC', 'CXX', 'CPP', 'LD', 'AR', 'AS', 'FC', 'MAKE', 'MAKEFLAGS', 'RUSTC', 'RUSTC_WRAPPER', 'RUSTFLAGS', 'CARGO_*',
  'GOFLAGS', 'GOENV', 'GOROOT', 'GOPROXY', 'GOTOOLCHAIN', 'GOPATH', 'GOBIN', 'CGO_CFLAGS', 'CGO_LDFLAGS', 'PYTEST_ADDOPTS', 'PYTEST_PLUGINS',
];

/** Whether setting `name` can change which program runs, load code into it, or make it run a command. */
export function isExecVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return EXEC_VARIABLES.some((pattern) => (pattern.endsWith('*') ? upper.startsWith(pattern.slice(0, -1)) : upper === pattern));
}
