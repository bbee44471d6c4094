// Where the person's approval rules live: this session's in memory, this workspace's in the workspace
// state, the "everywhere" ones in the global state (both outside every repository). Each rule keeps
// where it came from and can be revoked.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { parseRules, type ApprovalRule, type RuleScope } from '../../core/approvals';

export const APPROVAL_RULES_KEY = 'switchboard.approvalRules';

/** A rule as the person creates it (the store gives it its id, scope and time). */
export type NewRule = Omit<ApprovalRule, 'id' | 'scope' | 'createdAt'>;

export class ApprovalRules implements vscode.Disposable {
  private session: ApprovalRule[] = [];
  /** The rules last parsed from each memento, with the stored value they came from. */
  private readonly parsed = new Map<vscode.Memento, { stored: unknown; rules: ApprovalRule[] }>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly workspace: vscode.Memento, private readonly global: vscode.Memento, private readonly warn: (message: string) => void) {}

  /** Every rule, session first, then workspace, then global (deny rules win whatever the order). */
  all(): ApprovalRule[] {
    return [...this.session, ...this.read(this.workspace, 'workspace'), ...this.read(this.global, 'global')];
  }

  async add(rule: NewRule, scope: RuleScope, now = Date.now()): Promise<ApprovalRule> {
    const full: ApprovalRule = { ...rule, id: randomUUID(), scope, createdAt: now };
    if (scope === 'session') this.session = [...this.session, full];
    else {
      const memento = scope === 'workspace' ? this.workspace : this.global;
      await memento.update(APPROVAL_RULES_KEY, [...this.read(memento, scope), full]);
    }
    this.changed.fire();
    return full;
  }

  /** Removes a rule wherever it is kept; false when there is none with that id. */
  async revoke(id: string): Promise<boolean> {
    if (this.session.some((r) => r.id === id)) {
      this.session = this.session.filter((r) => r.id !== id);
      this.changed.fire();
      return true;
    }
    for (const [memento, scope] of [[this.workspace, 'workspace'], [this.global, 'global']] as const) {
      const rules = this.read(memento, scope);
      if (rules.some((r) => r.id === id)) {
        await memento.update(APPROVAL_RULES_KEY, rules.filter((r) => r.id !== id));
        this.changed.fire();
        return true;
      }
    }
    return false;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private read(memento: vscode.Memento, scope: RuleScope): ApprovalRule[] {
    const stored = memento.get<unknown>(APPROVAL_RULES_KEY, []);
    // Every call reads the rules: what is stored is parsed again only once it was replaced.
    const last = this.parsed.get(memento);
    if (last !== undefined && last.stored === stored) return last.rules;
    const rules = this.parse(stored, scope);
    this.parsed.set(memento, { stored, rules });
    return rules;
  }

  private parse(stored: unknown, scope: RuleScope): ApprovalRule[] {
    const items = Array.isArray(stored) ? stored : [];
    const rules: ApprovalRule[] = [];
    // Whatever is stored is checked one rule at a time: a rule that does not parse is skipped with a
    // warning (never guessed at), and the others still count.
    for (const item of items) {
      try {
        rules.push(...parseRules([item]).map((rule) => ({ ...rule, scope })));
      } catch (error) {
        this.warn(`an approval rule (${scope}) could not be read and is ignored: ${(error as Error).message}`);
      }
    }
    return rules;
  }
}
