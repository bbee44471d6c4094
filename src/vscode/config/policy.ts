// The administrator's policy in the extension: the managed file of the platform (and, when the
// environment names one, a second file whose rules are added — never a replacement), and the machine
// settings `switchboard.policy.*` read from the user settings only (a workspace cannot set them). Both
// are re-read when they change; a denied server is held by the registry as blocked by policy, with the
// rule, and is never started.
import * as vscode from 'vscode';
import { counted } from '../../protocol/counts';
import type { ApprovalMode } from '../../core/approvals';
import type { EffectiveServer } from '../../core/config/types';
import type { Disposable } from '../../core/disposable';
import { Emitter } from '../../core/event';
import {
  combinePolicies, EMPTY_POLICY, evaluatePolicy, managedPolicyFile, parsePolicyFile, policyFromSettings,
  type Policy, type PolicyVerdict, type RawPolicy,
} from '../../core/policy';
import { NodeConfigFileSystem } from '../../node/configFileSystem';

/** An extra policy file (added to the managed one's rules), for machines managed another way and for tests. */
export const POLICY_FILE_VARIABLE = 'SWITCHBOARD_POLICY_FILE';
const SETTINGS = 'switchboard.policy';
const POLICY_BYTES = 1024 * 1024;

/** The policy files the extension reads, in order: the platform's managed file, then the one the environment names. */
export function policyFiles(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return [managedPolicyFile(process.platform, env), ...(env[POLICY_FILE_VARIABLE] ? [env[POLICY_FILE_VARIABLE]!] : [])];
}

/** The policy in effect, kept current. */
export class PolicyService implements vscode.Disposable {
  private readonly changed = new Emitter<void>();
  /** The policy changed (a file or a setting). */
  readonly onDidChange = this.changed.event;
  private current: Policy = EMPTY_POLICY;
  private readonly disposables: (vscode.Disposable | Disposable)[] = [];
  private readonly files = new NodeConfigFileSystem();
  private loading: Promise<void> = Promise.resolve();

  constructor(private readonly log: vscode.LogOutputChannel, env: Readonly<Record<string, string | undefined>> = process.env) {
    this.sources = policyFiles(env);
    this.disposables.push(vscode.workspace.onDidChangeConfiguration((event) => { if (event.affectsConfiguration(SETTINGS)) void this.reload(); }));
  }

  /** Whether the policy files are watched (from the first reload on: activation does not wait for the watchers). */
  private watching = false;
  private disposed = false;

  /** The policy files read, in order. */
  readonly sources: string[];

  /** Reads every source; resolves when the new policy is in effect. */
  reload(): Promise<void> {
    // Watched before the first read, so that no change after it goes unseen.
    if (!this.watching && !this.disposed) {
      this.watching = true;
      for (const file of this.sources) this.disposables.push(this.files.watch(file, () => this.reload()));
    }
    this.loading = this.loading.then(() => this.read()).catch((error: unknown) => this.log.error('policy: reading failed:', error instanceof Error ? error : String(error)));
    return this.loading;
  }

  /** The policy's verdict on a server. */
  verdict(server: EffectiveServer): PolicyVerdict {
    return evaluatePolicy(this.current, server);
  }

  /** The approval mode the policy fixes, and where, or undefined when the person chooses it. */
  approvalLock(): { mode: ApprovalMode; origin: string } | undefined {
    return this.current.approvalMode;
  }

  /** Why the policy blocks this server (the registry then holds it), or undefined. */
  blockReason(server: EffectiveServer): string | undefined {
    const verdict = this.verdict(server);
    return verdict.verdict === 'denied' ? verdict.reason : undefined;
  }

  dispose(): void {
    this.disposed = true;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.changed.dispose();
  }

  private async read(): Promise<void> {
    const policies: Policy[] = [];
    for (const file of this.sources) {
      const read = await this.files.read(file, POLICY_BYTES);
      if (read.kind === 'missing') continue;
      if (read.kind !== 'text') {
        this.log.error(`policy: ${file} cannot be read (${read.kind}); no server runs until it can be`);
        policies.push({ allowed: [], denied: [], unreadable: `${file} cannot be read` });
        continue;
      }
      const parsed = parsePolicyFile(file, read.text);
      for (const problem of parsed.problems) this.log.warn(`policy: ${problem.file}:${problem.line}:${problem.column} ${problem.message}`);
      policies.push(parsed.policy);
    }
    const settings = policyFromSettings(userSettings(), SETTINGS);
    for (const problem of settings.problems) this.log.warn(`policy: ${problem}`);
    policies.push(settings.policy);
    this.current = combinePolicies(...policies);
    const { allowed, denied, onlyAllowlisted, unreadable } = this.current;
    const lock = this.current.approvalMode;
    this.log.info(`policy: ${counted(denied.length, 'deny rule')}, ${counted(allowed.length, 'allow rule')}${onlyAllowlisted ? ', only allowlisted servers' : ''}${lock ? `, approval mode fixed to ${lock.mode}` : ''}${unreadable ? `; ${unreadable}: every server is blocked` : ''}`);
    const ignored = this.current.ignoredAllowed;
    if (ignored) this.log.warn(`policy: ${ignored.origins.join(', ')} ${ignored.origins.length === 1 ? 'is' : 'are'} ignored: ${ignored.reason}`);
    this.changed.fire();
  }
}

/** `switchboard.policy.*` from the user (global) settings only: a workspace's value never counts. */
function userSettings(): RawPolicy {
  const configuration = vscode.workspace.getConfiguration(SETTINGS);
  const user = <T>(key: string): T | undefined => configuration.inspect<T>(key)?.globalValue;
  return { allowedServers: user('allowedServers'), deniedServers: user('deniedServers'), onlyAllowlisted: user('onlyAllowlisted'), approvalMode: user('approvalMode') };
}
