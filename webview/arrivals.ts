// Where a card that just arrived is put for the person: scrolled into view, unless they are typing in
// another card (moving the page under their caret would lose their place), in which case a marker
// says a new request is above or below and scrolls to it when clicked. And "Show the approval card"
// from the chat: scrolled to that card, its first button focused.

/** What to do about a card that just arrived. */
export type ArrivalAction = 'scroll' | 'mark' | 'none';

/** Where the person is and where the card is, as arrivalAction needs it. */
export interface ArrivalFacts {
  /** The focus is in a field of another card (the person may be typing there). */
  readonly typingElsewhere: boolean;
  /** The card's top is inside the view already (where it starts is on screen; a tall card may go on below). */
  readonly inView: boolean;
}

/** Nothing to do for a card already in view; a marker while the person types in another card; else scroll to it. */
export function arrivalAction(facts: ArrivalFacts): ArrivalAction {
  if (facts.inView) return 'none';
  return facts.typingElsewhere ? 'mark' : 'scroll';
}

/** The fields a person types into. */
const TYPING_SELECTOR = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])';

/** Whether `active` is a field inside a card other than `card`. */
export function typingInAnotherCard(active: Element | null, card: Element): boolean {
  if (active === null || !active.matches(TYPING_SELECTOR)) return false;
  const owner = active.closest('article');
  return owner !== null && owner !== card;
}

/** Whether the element's top lies inside the view (the window's height): the page need not move for it. */
export function isInView(element: Element, viewHeight: number): boolean {
  const { top } = element.getBoundingClientRect();
  return top >= 0 && top < viewHeight;
}

/** Whether the element lies above the view (scrolled past) rather than below it. */
export function isAbove(element: Element): boolean {
  return element.getBoundingClientRect().top < 0;
}

/** Scrolls the card to the top of the view and focuses its first button; false when it is not on the page. */
export function revealCard(root: ParentNode, selector: string): boolean {
  const card = root.querySelector<HTMLElement>(selector);
  if (card === null) return false;
  card.scrollIntoView({ block: 'start' });
  card.querySelector<HTMLElement>('button:not([disabled])')?.focus({ preventScroll: true });
  return true;
}
