// The sidebar app: says `ready`, renders every snapshot the extension posts, turns clicks into typed
// requests, and keeps what the person typed into waiting cards in the page's state, so a hidden and
// shown again (reloaded) page brings it back.
import type { OpenSourceParams, SidebarCommand } from '../src/protocol/sidebarMessages';
import type { SidebarSnapshot } from '../src/protocol/sidebar';
import { ANSWER_REMEMBER } from './approvals';
import { arrivalAction, isAbove, isInView, revealCard, typingInAnotherCard } from './arrivals';
import { argumentsOf, draftOf, withField, type CardDraft } from './drafts';
import { elicitationDraftOf, type ElicitationDraft } from './elicitations';
import { NO_FILTER, type HistoryFilterState } from './history';
import type { Host } from './host';
import { render, type Actions } from './render';
import { RpcClient } from './rpc';
import { narrowingOf } from './ruleChoices';
import { pageStateOf, readPageState, toggleSection, type UiState } from './state';

/** Starts the app in `root`, talking to the extension through `host`. */
export function startApp(root: HTMLElement, host: Host): void {
  const rpc = new RpcClient((message) => host.post(message));
  let snapshot: SidebarSnapshot | undefined;
  const stored = readPageState(host.getState());
  let ui: UiState = stored.ui;
  let notice: string | undefined;
  /** What the person did with each pending card; dropped once the card is gone. */
  const drafts = stored.drafts;
  let historyFilter: HistoryFilterState = NO_FILTER;
  /** Edits are checked by the extension once typing pauses; the latest check of a card wins. */
  const CHECK_DELAY_MS = 250;
  const checkTimers = new Map<string, ReturnType<typeof setTimeout>>();
  const checkSequence = new Map<string, number>();

  /** What the person filled into each pending form; dropped once the request is gone. */
  const elicitationDrafts: Map<string, ElicitationDraft> = stored.elicitationDrafts;

  /** Sampling requests whose answer is on its way. */
  const samplingBusy = new Set<string>();

  /** The waiting cards the page has shown (undefined before the first snapshot: those are not new). */
  let seenCards: Set<string> | undefined;
  /** Cards that arrived while the person typed in another one, and where they are: the marker's. */
  let marked: { ids: string[]; where: 'above' | 'below' } | undefined;
  /** The card the chat asked to show, until a snapshot has it on the page. */
  let revealWanted: string | undefined;

  const update = (): void => {
    host.setState(pageStateOf(ui, drafts, elicitationDrafts));
    const newRequests = marked !== undefined ? { count: marked.ids.length, where: marked.where } : undefined;
    render(root, { snapshot, ui, notice, drafts, historyFilter, elicitationDrafts, samplingBusy, newRequests }, actions);
  };

  const cardSelector = (id: string): string => `[data-testid="approval-card"][data-approval-id="${CSS.escape(id)}"]`;

  /** After a snapshot was drawn: the chat's reveal, else the first new card brought into view or marked. */
  function placeArrivals(arrived: readonly string[]): void {
    if (revealWanted !== undefined && revealCard(root, cardSelector(revealWanted))) {
      if (marked !== undefined) marked = { ...marked, ids: marked.ids.filter((id) => id !== revealWanted) };
      revealWanted = undefined;
    }
    const first = arrived.map((id) => root.querySelector(cardSelector(id))).find((card) => card !== null);
    if (first === undefined || first === null) return;
    const action = arrivalAction({ typingElsewhere: typingInAnotherCard(document.activeElement, first), inView: isInView(first, window.innerHeight) });
    if (action === 'scroll') first.scrollIntoView({ block: 'start' });
    if (action === 'mark') marked = { ids: [...(marked?.ids ?? []), ...arrived], where: isAbove(first) ? 'above' : 'below' };
  }

  function elicitationDraft(id: string): ElicitationDraft | undefined {
    const existing = elicitationDrafts.get(id);
    if (existing) return existing;
    const card = snapshot?.elicitations.find((c) => c.id === id);
    return card ? elicitationDraftOf(card) : undefined;
  }

  async function checkElicitation(id: string): Promise<void> {
    checkTimers.delete(`el:${id}`);
    const draft = elicitationDraft(id);
    if (!draft) return;
    const sequence = (checkSequence.get(`el:${id}`) ?? 0) + 1;
    checkSequence.set(`el:${id}`, sequence);
    const result = await rpc.request('checkElicitation', { elicitationId: id, values: draft.values });
    const now = elicitationDrafts.get(id);
    if (checkSequence.get(`el:${id}`) !== sequence || !now) return;
    elicitationDrafts.set(id, { ...now, problems: result.problems });
    update();
  }

  async function answerElicitation(id: string, action: 'accept' | 'decline' | 'cancel'): Promise<void> {
    const draft = elicitationDraft(id);
    if (!draft || draft.busy) return;
    elicitationDrafts.set(id, { ...draft, busy: true });
    update();
    try {
      const card = snapshot?.elicitations.find((c) => c.id === id);
      const result = await rpc.request('answerElicitation', { elicitationId: id, action, ...(action === 'accept' && card?.mode === 'form' ? { values: draft.values } : {}) });
      // Problems: the form stays, with each problem at its field.
      if (result.problems.length > 0) elicitationDrafts.set(id, { ...draft, problems: result.problems, busy: false });
    } catch (error) {
      elicitationDrafts.set(id, { ...draft, busy: false });
      throw error;
    } finally {
      update();
    }
  }


  function draftFor(id: string): CardDraft | undefined {
    const existing = drafts.get(id);
    if (existing) return existing;
    const card = snapshot?.approvals.pending.find((c) => c.id === id);
    return card ? draftOf(card) : undefined;
  }

  function setDraft(id: string, change: (draft: CardDraft) => CardDraft): CardDraft | undefined {
    const current = draftFor(id);
    if (!current) return undefined;
    const next = change(current);
    drafts.set(id, next);
    return next;
  }

  /** Asks the extension to check a card's arguments (schema, and a fresh preview); resolves to whether they are fine. */
  async function check(id: string): Promise<boolean> {
    clearTimeout(checkTimers.get(id));
    checkTimers.delete(id);
    const draft = draftFor(id);
    if (!draft) return false;
    const local = argumentsOf(draft);
    if (!local.ok) {
      update();
      return false;
    }
    const sequence = (checkSequence.get(id) ?? 0) + 1;
    checkSequence.set(id, sequence);
    const result = await rpc.request('checkArguments', { approvalId: id, args: local.args });
    if (checkSequence.get(id) !== sequence || !drafts.has(id) && !snapshot?.approvals.pending.some((c) => c.id === id)) return result.problems.length === 0;
    setDraft(id, (d) => ({ ...d, problems: result.problems, ...(result.preview ? { preview: result.preview } : {}) }));
    update();
    return result.problems.length === 0;
  }

  function scheduleCheck(id: string): void {
    clearTimeout(checkTimers.get(id));
    checkTimers.set(id, setTimeout(() => ask(check(id), 'Could not check the arguments'), CHECK_DELAY_MS));
  }

  async function answer(id: string, kind: Parameters<Actions['answer']>[1]): Promise<void> {
    const draft = draftFor(id);
    if (!draft || draft.busy) return;
    const busy = (value: boolean): void => {
      setDraft(id, (d) => ({ ...d, busy: value }));
      update();
    };
    if (kind === 'reject') {
      busy(true);
      const reason = draft.reason.trim();
      await rpc.request('answerApproval', { approvalId: id, answer: { kind: 'reject', ...(reason !== '' ? { reason } : {}) } }).catch((error: unknown) => {
        busy(false);
        throw error;
      });
      return;
    }
    const local = argumentsOf(draft);
    if (!local.ok) {
      update();
      return;
    }
    busy(true);
    clearTimeout(checkTimers.get(id));
    checkTimers.delete(id);
    // A check still on its way must not overwrite what the answer says.
    checkSequence.set(id, (checkSequence.get(id) ?? 0) + 1);
    try {
      const remember = ANSWER_REMEMBER[kind];
      const card = snapshot?.approvals.pending.find((c) => c.id === id);
      const narrow = remember && card ? narrowingOf(card, local.args, draft.ruleChoice) : undefined;
      // One round trip: arguments that do not fit come back as problems, the card stays and shows them.
      const result = await rpc.request('answerApproval', {
        approvalId: id,
        answer: { kind: 'approve', args: local.args, ...(remember ? { remember } : {}), ...(narrow ? { narrow } : {}) },
      });
      if (result.problems.length > 0) {
        setDraft(id, (d) => ({ ...d, problems: result.problems, ...(result.preview ? { preview: result.preview } : {}), busy: false }));
        update();
      }
    } catch (error) {
      busy(false);
      throw error;
    }
  }

  function ask(promise: Promise<unknown>, failure: string): void {
    if (notice !== undefined) {
      notice = undefined;
      update();
    }
    promise.catch((error: unknown) => {
      notice = `${failure}: ${error instanceof Error ? error.message : String(error)}`;
      update();
    });
  }

  const actions: Actions = {
    openSource: (params: OpenSourceParams) => ask(rpc.request('openSource', params), 'Could not open the definition'),
    runCommand: (command: SidebarCommand) => ask(rpc.request('runCommand', { command }), 'Could not run the command'),
    serverAction: (serverId, action) => ask(rpc.request('serverAction', { serverId, action }), `Could not ${action === 'showLogs' ? 'show the logs' : action} ${serverId}`),
    toggleSection: (id) => {
      ui = toggleSection(ui, id);
      update();
    },
    dismissNotice: () => {
      notice = undefined;
      update();
    },
    editArgument: (id, field, value) => {
      setDraft(id, (d) => withField(d, field, value));
      update();
      scheduleCheck(id);
    },
    editReason: (id, value) => {
      setDraft(id, (d) => ({ ...d, reason: value }));
      update();
    },
    chooseRule: (id, key) => {
      setDraft(id, (d) => ({ ...d, ruleChoice: key }));
      update();
    },
    showWholeDiff: (id) => {
      setDraft(id, (d) => ({ ...d, wholeDiff: true }));
      update();
    },
    answer: (id, kind) => ask(answer(id, kind), kind === 'reject' ? 'Could not reject the call' : 'Could not approve the call'),
    openDiff: (id, change) => {
      const draft = draftFor(id);
      const local = draft ? argumentsOf(draft) : undefined;
      if (!local?.ok) {
        update();
        return;
      }
      ask(rpc.request('openDiff', { approvalId: id, args: local.args, change }), 'Could not open the diff');
    },
    setMode: (mode) => ask(rpc.request('setApprovalMode', { mode }), 'Could not change the approval mode'),
    revokeRule: (ruleId) => ask(rpc.request('revokeRule', { ruleId }), 'Could not revoke the rule'),
    filterHistory: (filter) => {
      historyFilter = filter;
      update();
    },
    exportHistory: () => ask(rpc.request('exportHistory', {}), 'Could not export the history'),
    editElicitation: (id, field, value) => {
      const draft = elicitationDraft(id);
      if (!draft) return;
      elicitationDrafts.set(id, { ...draft, values: { ...draft.values, [field]: value } });
      update();
      clearTimeout(checkTimers.get(`el:${id}`));
      checkTimers.set(`el:${id}`, setTimeout(() => ask(checkElicitation(id), 'Could not check the form'), CHECK_DELAY_MS));
    },
    answerSampling: (id, answer, reason) => {
      samplingBusy.add(id);
      update();
      ask(rpc.request('answerSampling', { samplingId: id, answer, ...(reason !== undefined ? { reason } : {}) }).finally(() => {
        samplingBusy.delete(id);
        update();
      }), answer === 'reject' ? 'Could not reject the request' : 'Could not approve the request');
    },
    answerElicitation: (id, action) => ask(answerElicitation(id, action), action === 'accept' ? 'Could not send the answer' : `Could not ${action} the request`),
    clearHistory: () => ask(rpc.request('clearHistory', {}), 'Could not clear the history'),
    cancelTask: (id) => ask(rpc.request('cancelTask', { taskId: id }), 'Could not cancel the task'),
    openTaskResult: (id) => ask(rpc.request('openTaskResult', { taskId: id }), 'Could not open the result'),
    clearTasks: () => ask(rpc.request('clearTasks', {}), 'Could not clear the tasks'),
    showNewRequests: () => {
      const first = marked?.ids.map((id) => root.querySelector(cardSelector(id))).find((card) => card !== null);
      marked = undefined;
      first?.scrollIntoView({ block: 'start' });
      update();
    },
    answerTrustCard: (serverId, fingerprint, answer) => ask(rpc.request('answerTrustCard', { serverId, fingerprint, answer }), answer === 'trust' ? 'Could not trust the server' : 'Could not refuse the server'),
    answerHeldOutput: (id, release, reason) => ask(rpc.request('answerHeldOutput', { heldId: id, release, ...(reason !== undefined ? { reason } : {}) }), release ? 'Could not give the result to the model' : 'Could not withhold the result'),
  };

  host.onMessage((message) => {
    switch (message.type) {
      case 'snapshot': {
        snapshot = message.snapshot;
        const pending = new Set(snapshot.approvals.pending.map((card) => card.id));
        const asking = new Set(snapshot.elicitations.map((card) => card.id));
        for (const id of [...elicitationDrafts.keys()]) {
          if (asking.has(id)) continue;
          elicitationDrafts.delete(id);
          clearTimeout(checkTimers.get(`el:${id}`));
          checkTimers.delete(`el:${id}`);
        }
        for (const id of [...drafts.keys()]) {
          if (pending.has(id)) continue;
          drafts.delete(id);
          clearTimeout(checkTimers.get(id));
          checkTimers.delete(id);
        }
        const arrived = seenCards === undefined ? [] : [...pending].filter((id) => !seenCards?.has(id));
        seenCards = pending;
        if (marked !== undefined) {
          const left = marked.ids.filter((id) => pending.has(id));
          marked = left.length > 0 ? { ...marked, ids: left } : undefined;
        }
        if (revealWanted !== undefined && !pending.has(revealWanted)) revealWanted = undefined;
        update();
        placeArrivals(arrived);
        // A marker that came (or went) with this snapshot is drawn now.
        update();
        return;
      }
      case 'reveal':
        revealWanted = message.approvalId;
        placeArrivals([]);
        update();
        return;
      case 'response':
      case 'error':
        rpc.settle(message);
        return;
      default: {
        const unexpected: never = message;
        throw new Error(`Unexpected message: ${JSON.stringify(unexpected)}`);
      }
    }
  });

  update();
  host.post({ type: 'ready' });
}
