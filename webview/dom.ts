// The page's building blocks for lit-html templates. Templates never parse markup from data: values
// go in as text or attribute values, so server names and command lines from repositories cannot
// become elements or handlers.
import { html, nothing, svg, type SVGTemplateResult, type TemplateResult } from 'lit-html';

/** Line icons drawn on a 16×16 grid in `currentColor`, so themes (and high contrast) colour them. */
const ICONS = {
  chevron: svg`<path d="M6 3.5 10.5 8 6 12.5" fill="none" stroke-width="1.3"></path>`,
  error: svg`<circle cx="8" cy="8" r="6.25" fill="none" stroke-width="1.3"></circle><path d="M5.75 5.75l4.5 4.5m0-4.5-4.5 4.5" fill="none" stroke-width="1.3"></path>`,
  warning: svg`<path d="M8 1.9 14.6 13.6H1.4Z" fill="none" stroke-width="1.2" stroke-linejoin="round"></path><path d="M8 6v4" fill="none" stroke-width="1.3"></path><circle cx="8" cy="11.9" r="0.8" stroke="none"></circle>`,
  pass: svg`<circle cx="8" cy="8" r="6.25" fill="none" stroke-width="1.3"></circle><path d="M5.2 8.2 7.2 10.2 10.9 6" fill="none" stroke-width="1.3" stroke-linejoin="round"></path>`,
  // A three-quarter ring; the stylesheet turns it.
  spinner: svg`<path d="M8 1.75A6.25 6.25 0 1 1 1.75 8" fill="none" stroke-width="1.5" stroke-linecap="round"></path>`,
  shield: svg`<path d="M8 1.6 2.9 3.5v3.9c0 3.2 2.2 5.6 5.1 6.9 2.9-1.3 5.1-3.7 5.1-6.9V3.5Z" fill="none" stroke-width="1.3" stroke-linejoin="round"></path>`,
} as const satisfies Record<string, SVGTemplateResult>;

export type IconName = keyof typeof ICONS;

/** A decorative icon, hidden from assistive technology (the text next to it says the same). */
export function icon(name: IconName, className = ''): TemplateResult {
  return html`<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" fill="currentColor" stroke="currentColor" class=${`icon icon-${name} ${className}`.trim()}>${ICONS[name]}</svg>`;
}

/** An attribute that is there only when `value` is defined (lit's `nothing` leaves it out). */
export const opt = (value: string | undefined): string | typeof nothing => value ?? nothing;

/** The value of the input, select or textarea an event came from. */
export const valueOf = (event: Event): string => (event.currentTarget as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement).value;
