// Values a person typed in (the `${input:…}` answers) and the values an env file supplied are secrets
// the launch definition does not show, so secretsOf cannot know them. These wrappers scrub them out of
// everything that leaves a connection towards logs and the UI: log lines, trace messages, the server's
// own log messages, errors (their message, stderr tail and cause), close reasons and the catalog. The
// secrets may be a fixed list or a SecretSet that grows while the connection starts (the env file is
// read just before the spawn).
import type { TaskPort, TaskState } from '../tasks/types';
import { ConnectError } from './errors';
import type { CloseInfo, RequestOptions, ServerConnection, ServerLog } from './ports';
import { isRedactable, redactText } from './redact';

/** Every form of each value worth scrubbing (raw, percent-encoded, JSON-escaped), longest first. */
export function secretForms(values: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const value of values) {
    if (!isRedactable(value)) continue;
    forms.add(value);
    try { forms.add(encodeURIComponent(value)); } catch { /* a lone surrogate cannot be encoded */ }
    forms.add(JSON.stringify(value).slice(1, -1));
  }
  return [...forms].filter(isRedactable).sort((a, b) => b.length - a.length);
}

/** The secrets of one launch, in every form worth scrubbing; more are added as the connector learns them. */
export class SecretSet {
  private readonly values = new Set<string>();
  private sorted: readonly string[] = [];

  constructor(values: Iterable<string> = []) {
    this.add(values);
  }

  /** Adds values (raw; their encoded forms are added with them). */
  add(values: Iterable<string>): void {
    const before = this.values.size;
    for (const form of secretForms(values)) this.values.add(form);
    if (this.values.size !== before) this.sorted = [...this.values].sort((a, b) => b.length - a.length);
  }

  /** Every form, longest first. */
  list(): readonly string[] {
    return this.sorted;
  }
}

/** A fixed list of secret forms, or a set that may still grow. */
export type Secrets = readonly string[] | SecretSet;

function listOf(secrets: Secrets): readonly string[] {
  return secrets instanceof SecretSet ? secrets.list() : secrets;
}

/** Whether there is nothing to scrub now and never will be. */
function neverAny(secrets: Secrets): boolean {
  return !(secrets instanceof SecretSet) && secrets.length === 0;
}

/**
 * A copy of a JSON-like value with every string (and object key) scrubbed. Walked with an explicit
 * stack: a server's listing or log message may be nested deeper than the call stack goes.
 */
export function redactValue<T>(value: T, source: Secrets): T {
  const secrets = listOf(source);
  if (secrets.length === 0) return value;
  const seen = new WeakMap<object, unknown>();
  const root: { value: unknown } = { value: undefined };
  const stack: { node: unknown; put: (copy: unknown) => void }[] = [{ node: value, put: (copy) => { root.value = copy; } }];
  while (stack.length > 0) {
    const { node, put } = stack.pop()!;
    if (typeof node === 'string') { put(redactText(node, secrets)); continue; }
    if (typeof node !== 'object' || node === null) { put(node); continue; }
    if (seen.has(node)) { put(seen.get(node)); continue; }
    if (Array.isArray(node)) {
      const copy: unknown[] = new Array<unknown>(node.length);
      seen.set(node, copy);
      put(copy);
      node.forEach((item, index) => stack.push({ node: item, put: (child) => { copy[index] = child; } }));
      continue;
    }
    const copy: Record<string, unknown> = {};
    seen.set(node, copy);
    put(copy);
    const entries = Object.entries(node).map(([key, child]) => [redactText(key, secrets), child] as const);
    // Keys are set in order now (the stack fills them in reverse), so the copy keeps the server's order.
    for (const [key] of entries) copy[key] = undefined;
    for (const [key, child] of entries) stack.push({ node: child, put: (item) => { copy[key] = item; } });
  }
  return root.value as T;
}

/**
 * The error with the secrets scrubbed from its message, stack, string fields, stderr tail and cause.
 * Errors are changed in place, so their class (and what callers test with instanceof) is kept.
 */
export function redactError(error: unknown, source: Secrets, depth = 0): unknown {
  const secrets = listOf(source);
  if (secrets.length === 0) return error;
  if (typeof error === 'string') return redactText(error, secrets);
  if (!(error instanceof Error) || depth > 4) return error;
  error.message = redactText(error.message, secrets);
  if (error.stack !== undefined) error.stack = redactText(error.stack, secrets);
  if (error instanceof ConnectError) error.stderrTail.splice(0, error.stderrTail.length, ...error.stderrTail.map((line) => redactText(line, secrets)));
  const fields = error as unknown as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    const field = fields[key];
    if (key === 'cause' || key === 'stderrTail') continue;
    if (typeof field === 'string') fields[key] = redactText(field, secrets);
    else if (typeof field === 'object' && field !== null && !(field instanceof Error)) fields[key] = redactValue(field, secrets);
  }
  if (error.cause !== undefined) error.cause = redactError(error.cause, secrets, depth + 1);
  return error;
}

/** A ServerLog that scrubs `secrets` from everything before it reaches `log`. */
export function redactingLog(log: ServerLog, secrets: Secrets): ServerLog {
  if (neverAny(secrets)) return log;
  const scrub = (text: string): string => redactText(text, listOf(secrets));
  return {
    info: (message) => log.info(scrub(message)),
    warn: (message) => log.warn(scrub(message)),
    error: (message) => log.error(scrub(message)),
    stderr: (line) => log.stderr(scrub(line)),
    serverMessage: (level, logger, data) => log.serverMessage(level, logger === undefined ? undefined : scrub(logger), redactValue(data, secrets)),
    trace: (direction, message) => log.trace(direction, redactValue(message, secrets)),
  };
}

/**
 * A connection whose failures, close reasons, server info and catalog pages are scrubbed of `secrets`.
 * Tool results, resources and prompts pass through as the server sent them: they are what the caller
 * asked for, and they reach logs only through the (scrubbed) trace.
 */
export function redactingConnection(connection: ServerConnection, secrets: Secrets): ServerConnection {
  if (neverAny(secrets)) return connection;
  const rethrowScrubbed = (error: unknown): never => { throw redactError(error, secrets); };
  const scrubbed = <T>(request: () => Promise<T>): Promise<T> => {
    try {
      return request().catch(rethrowScrubbed);
    } catch (error) {
      return Promise.reject(redactError(error, secrets));
    }
  };
  const closeInfo = (info: CloseInfo): CloseInfo => ({
    ...info,
    reason: redactText(info.reason, listOf(secrets)),
    stderrTail: info.stderrTail.map((line) => redactText(line, listOf(secrets))),
  });
  return {
    get serverInfo() { return redactValue(connection.serverInfo, secrets); },
    get instructions() { return connection.instructions === undefined ? undefined : redactText(connection.instructions, listOf(secrets)); },
    get protocolVersion() { return connection.protocolVersion; },
    get supports() { return connection.supports; },
    listPage: (kind, cursor, options) => scrubbed(() => connection.listPage(kind, cursor, options)).then((page) => redactValue(page, secrets)),
    // Every tool call passes here: no closure per call, only the one handler that scrubs a failure.
    callTool: (name, args, options) => {
      try {
        return connection.callTool(name, args, options).catch(rethrowScrubbed);
      } catch (error) {
        return Promise.reject(redactError(error, secrets));
      }
    },
    // Task results pass through like tool results; failures (and status messages) are scrubbed.
    tasks: connection.tasks === undefined ? undefined : redactingTasks(connection.tasks, scrubbed, secrets),
    readResource: (uri, options) => scrubbed(() => connection.readResource(uri, options)),
    getPrompt: (name, args, options) => scrubbed(() => connection.getPrompt(name, args, options)),
    complete: (request, options) => scrubbed(() => connection.complete(request, options)),
    setLogLevel: (level) => scrubbed(() => connection.setLogLevel(level)),
    notifyRootsChanged: () => scrubbed(() => connection.notifyRootsChanged()),
    onListChanged: connection.onListChanged,
    get resourceWatch() {
      const watch = connection.resourceWatch;
      return watch && {
        watch: (uri: string, options: RequestOptions) => scrubbed(() => watch.watch(uri, options)),
        unwatch: (uri: string, options: RequestOptions) => scrubbed(() => watch.unwatch(uri, options)),
        onUpdated: watch.onUpdated,
      };
    },
    onClose: (listener) => connection.onClose((info) => listener(closeInfo(info))),
    close: () => scrubbed(() => connection.close()),
    dispose: () => connection.dispose(),
  };
}

/** The task requests of a redacting connection: failures and the server's status messages scrubbed. */
function redactingTasks(tasks: TaskPort, scrubbed: <T>(request: () => Promise<T>) => Promise<T>, secrets: Secrets): TaskPort {
  const state = (task: TaskState): TaskState => task.statusMessage === undefined ? task : { ...task, statusMessage: redactText(task.statusMessage, listOf(secrets)) };
  return {
    createToolTask: (name, args, options) => scrubbed(() => tasks.createToolTask(name, args, options)).then(state),
    getTask: (taskId, options) => scrubbed(() => tasks.getTask(taskId, options)).then(state),
    taskResult: (taskId, options) => scrubbed(() => tasks.taskResult(taskId, options)),
    cancelTask: (taskId, options) => scrubbed(() => tasks.cancelTask(taskId, options)).then(state),
    onTaskStatus: (listener) => tasks.onTaskStatus((task) => listener(state(task))),
  };
}
