// View state that survives the page being hidden and reloaded (VS Code keeps what `setState` stored):
// which sections are collapsed, and what the person typed into cards and forms that still wait.
// Whatever `getState` returns may come from an older page, so it is read field by field.
import type { CardDraft, FieldDraft } from './drafts';
import type { ElicitationDraft } from './elicitations';

export const SECTION_IDS = ['trust', 'requests', 'heldOutputs', 'approvals', 'tasks', 'servers', 'shadowed', 'problems', 'rules', 'history'] as const;
export type SectionId = (typeof SECTION_IDS)[number];

export interface UiState {
  readonly version: 1;
  readonly collapsed: readonly SectionId[];
}

export const INITIAL_UI_STATE: UiState = { version: 1, collapsed: [] };

/** Everything the page stores: the sections and the drafts by card or request id. */
export interface PageState extends UiState {
  readonly drafts?: Readonly<Record<string, CardDraft>>;
  readonly elicitationDrafts?: Readonly<Record<string, ElicitationDraft>>;
}

const isSectionId = (value: unknown): value is SectionId =>
  typeof value === 'string' && (SECTION_IDS as readonly string[]).includes(value);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads what `getState` returned, which may come from an older version of this page. */
export function readUiState(raw: unknown): UiState {
  if (!isObject(raw) || raw.version !== 1) return INITIAL_UI_STATE;
  const collapsed = Array.isArray(raw.collapsed) ? raw.collapsed.filter(isSectionId) : [];
  return { version: 1, collapsed };
}

export function toggleSection(state: UiState, id: SectionId): UiState {
  const collapsed = state.collapsed.includes(id) ? state.collapsed.filter((s) => s !== id) : [...state.collapsed, id];
  return { version: 1, collapsed };
}

const isField = (value: unknown): value is FieldDraft => isObject(value) && typeof value.name === 'string'
  && (value.kind === 'text' || value.kind === 'json') && typeof value.value === 'string'
  && typeof value.required === 'boolean' && typeof value.present === 'boolean';

const isProblems = (value: unknown): boolean => Array.isArray(value)
  && value.every((p) => isObject(p) && typeof p.path === 'string' && typeof p.message === 'string');

/** A stored card draft, or undefined when it is not one. An answer that was on its way is not any more. */
function readCardDraft(value: unknown): CardDraft | undefined {
  if (!isObject(value) || !Array.isArray(value.fields) || !value.fields.every(isField) || typeof value.reason !== 'string'
    || typeof value.edited !== 'boolean' || !isProblems(value.problems)) return undefined;
  const preview = isObject(value.preview) && Array.isArray(value.preview.changes) && typeof value.preview.diff === 'string' ? value.preview as unknown as CardDraft['preview'] : undefined;
  return {
    fields: value.fields,
    reason: value.reason,
    problems: value.problems as CardDraft['problems'],
    ...(preview ? { preview } : {}),
    edited: value.edited,
    busy: false,
    wholeDiff: value.wholeDiff === true,
    ...(typeof value.ruleChoice === 'string' ? { ruleChoice: value.ruleChoice } : {}),
  };
}

const isFieldValue = (value: unknown): boolean =>
  typeof value === 'string' || typeof value === 'boolean' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));

function readElicitationDraft(value: unknown): ElicitationDraft | undefined {
  if (!isObject(value) || !isObject(value.values) || !Object.values(value.values).every(isFieldValue) || !isProblems(value.problems)) return undefined;
  return { values: value.values as ElicitationDraft['values'], problems: value.problems as ElicitationDraft['problems'], busy: false };
}

function readMap<T>(raw: unknown, read: (value: unknown) => T | undefined): Map<string, T> {
  const map = new Map<string, T>();
  if (!isObject(raw)) return map;
  for (const [id, value] of Object.entries(raw)) {
    const draft = read(value);
    if (draft !== undefined) map.set(id, draft);
  }
  return map;
}

/** The sections and the drafts a page stored; anything not understood is left out. */
export function readPageState(raw: unknown): { ui: UiState; drafts: Map<string, CardDraft>; elicitationDrafts: Map<string, ElicitationDraft> } {
  const ui = readUiState(raw);
  if (!isObject(raw) || raw.version !== 1) return { ui, drafts: new Map(), elicitationDrafts: new Map() };
  return { ui, drafts: readMap(raw.drafts, readCardDraft), elicitationDrafts: readMap(raw.elicitationDrafts, readElicitationDraft) };
}

/** What the page stores: plain JSON, as VS Code keeps it. */
export function pageStateOf(ui: UiState, drafts: ReadonlyMap<string, CardDraft>, elicitationDrafts: ReadonlyMap<string, ElicitationDraft>): PageState {
  return { ...ui, drafts: Object.fromEntries(drafts), elicitationDrafts: Object.fromEntries(elicitationDrafts) };
}
