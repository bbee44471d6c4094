// View state that survives the page being hidden and reloaded: which sections are collapsed.
export const SECTION_IDS = ['requests', 'heldOutputs', 'approvals', 'servers', 'shadowed', 'problems', 'rules', 'history'] as const;
export type SectionId = (typeof SECTION_IDS)[number];

export interface UiState {
  readonly version: 1;
  readonly collapsed: readonly SectionId[];
}

export const INITIAL_UI_STATE: UiState = { version: 1, collapsed: [] };

const isSectionId = (value: unknown): value is SectionId =>
  typeof value === 'string' && (SECTION_IDS as readonly string[]).includes(value);

/** Reads what `getState` returned, which may come from an older version of this page. */
export function readUiState(raw: unknown): UiState {
  if (typeof raw !== 'object' || raw === null || !('version' in raw) || raw.version !== 1) return INITIAL_UI_STATE;
  const collapsed = 'collapsed' in raw && Array.isArray(raw.collapsed) ? raw.collapsed.filter(isSectionId) : [];
  return { version: 1, collapsed };
}

export function toggleSection(state: UiState, id: SectionId): UiState {
  const collapsed = state.collapsed.includes(id) ? state.collapsed.filter((s) => s !== id) : [...state.collapsed, id];
  return { version: 1, collapsed };
}
