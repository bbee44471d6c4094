// Builds DOM from data without ever parsing markup: text goes in as Text nodes, attributes through
// setAttribute. Server names and command lines come from repositories; nothing here can run them.
type Child = Node | string | false | null | undefined;

export interface Props {
  readonly className?: string;
  /** Attribute values; `undefined` leaves the attribute out. Never pass `style` or `on…`. */
  readonly attrs?: Readonly<Record<string, string | undefined>>;
  readonly onClick?: () => void;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.className) element.className = props.className;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value !== undefined) element.setAttribute(name, value);
  }
  const { onClick } = props;
  if (onClick) element.addEventListener('click', () => onClick());
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Line icons drawn on a 16×16 grid in `currentColor`, so themes (and high contrast) colour them. */
const ICONS = {
  chevron: [['path', { d: 'M6 3.5 10.5 8 6 12.5', fill: 'none', 'stroke-width': '1.3' }]],
  error: [
    ['circle', { cx: '8', cy: '8', r: '6.25', fill: 'none', 'stroke-width': '1.3' }],
    ['path', { d: 'M5.75 5.75l4.5 4.5m0-4.5-4.5 4.5', fill: 'none', 'stroke-width': '1.3' }],
  ],
  warning: [
    ['path', { d: 'M8 1.9 14.6 13.6H1.4Z', fill: 'none', 'stroke-width': '1.2', 'stroke-linejoin': 'round' }],
    ['path', { d: 'M8 6v4', fill: 'none', 'stroke-width': '1.3' }],
    ['circle', { cx: '8', cy: '11.9', r: '0.8', stroke: 'none' }],
  ],
  pass: [
    ['circle', { cx: '8', cy: '8', r: '6.25', fill: 'none', 'stroke-width': '1.3' }],
    ['path', { d: 'M5.2 8.2 7.2 10.2 10.9 6', fill: 'none', 'stroke-width': '1.3', 'stroke-linejoin': 'round' }],
  ],
  // A three-quarter ring; the stylesheet turns it.
  spinner: [['path', { d: 'M8 1.75A6.25 6.25 0 1 1 1.75 8', fill: 'none', 'stroke-width': '1.5', 'stroke-linecap': 'round' }]],
  shield: [['path', { d: 'M8 1.6 2.9 3.5v3.9c0 3.2 2.2 5.6 5.1 6.9 2.9-1.3 5.1-3.7 5.1-6.9V3.5Z', fill: 'none', 'stroke-width': '1.3', 'stroke-linejoin': 'round' }]],
} as const satisfies Record<string, readonly (readonly [string, Readonly<Record<string, string>>])[]>;

export type IconName = keyof typeof ICONS;

/** A decorative icon, hidden from assistive technology (the text next to it says the same). */
export function icon(name: IconName, className = ''): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('fill', 'currentColor');
  svg.setAttribute('stroke', 'currentColor');
  svg.setAttribute('class', `icon icon-${name} ${className}`.trim());
  for (const [tag, attrs] of ICONS[name]) {
    const shape = document.createElementNS(SVG_NS, tag);
    for (const [attr, value] of Object.entries(attrs)) shape.setAttribute(attr, value);
    svg.append(shape);
  }
  return svg;
}
