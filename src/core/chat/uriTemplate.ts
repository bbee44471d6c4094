// Resource templates (RFC 6570 URI templates, the forms MCP servers use): which variables a template
// has, a template filled with values, and whether a concrete URI is an instance of a template (and
// with which values). Operators: none, `+`, `#`, `/`, `.`, `;`, `?`, `&`; no prefix or explode modifiers
// in matching (a variable with them still expands, and matches as an opaque value).

interface Expression {
  readonly operator: '' | '+' | '#' | '/' | '.' | ';' | '?' | '&';
  readonly names: readonly string[];
}

type Piece = { readonly literal: string } | { readonly expression: Expression };

const OPERATORS = new Set(['+', '#', '/', '.', ';', '?', '&']);

function parse(template: string): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  for (const match of template.matchAll(/\{([^{}]*)\}/g)) {
    const index = match.index ?? 0;
    if (index > at) pieces.push({ literal: template.slice(at, index) });
    let body = match[1];
    let operator: Expression['operator'] = '';
    if (body.length > 0 && OPERATORS.has(body[0])) {
      operator = body[0] as Expression['operator'];
      body = body.slice(1);
    }
    const names = body.split(',').map((name) => name.replace(/(\*|:\d+)$/, '').trim()).filter((name) => name !== '');
    pieces.push({ expression: { operator, names } });
    at = index + match[0].length;
  }
  if (at < template.length) pieces.push({ literal: template.slice(at) });
  return pieces;
}

/** Whether `text` has a `{…}` expression at all (a template rather than a URI). */
export function isUriTemplate(text: string): boolean {
  return /\{[^{}]*\}/.test(text);
}

/** The template's variable names, in order, each once. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const piece of parse(template)) {
    if ('expression' in piece) for (const name of piece.expression.names) if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The template filled with `values` (a variable without a value is left out, as RFC 6570 says). */
export function expandUriTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return parse(template).map((piece) => ('literal' in piece ? piece.literal : expandExpression(piece.expression, values))).join('');
}

function expandExpression({ operator, names }: Expression, values: Readonly<Record<string, string>>): string {
  const reserved = operator === '+' || operator === '#';
  const encode = (value: string): string => (reserved ? encodeURI(value) : encodeURIComponent(value));
  const defined = names.filter((name) => values[name] !== undefined);
  if (defined.length === 0) return '';
  switch (operator) {
    case '': case '+': return defined.map((name) => encode(values[name])).join(',');
    case '#': return `#${defined.map((name) => encode(values[name])).join(',')}`;
    case '/': return defined.map((name) => `/${encode(values[name])}`).join('');
    case '.': return defined.map((name) => `.${encode(values[name])}`).join('');
    case ';': return defined.map((name) => (values[name] === '' ? `;${name}` : `;${name}=${encode(values[name])}`)).join('');
    case '?': case '&': return `${operator}${defined.map((name) => `${name}=${encode(values[name])}`).join('&')}`;
  }
}

/** The values that make `template` expand to `uri`, or undefined when `uri` is no instance of it. */
export function matchUriTemplate(template: string, uri: string): Record<string, string> | undefined {
  const groups: { names: readonly string[]; kind: 'single' | 'list' | 'query' }[] = [];
  let pattern = '';
  for (const piece of parse(template)) {
    if ('literal' in piece) {
      pattern += escape(piece.literal);
      continue;
    }
    const { operator, names } = piece.expression;
    switch (operator) {
      case '':
        pattern += names.length === 1 ? '([^/?#,]*)' : '([^/?#]*)';
        break;
      case '+':
        pattern += '([^?#]*)';
        break;
      case '#':
        pattern += '(?:#(.*))?';
        break;
      case '/':
        pattern += `((?:/[^/?#]*){0,${names.length}})`;
        break;
      case '.':
        pattern += `((?:\\.[^/?#.]*){0,${names.length}})`;
        break;
      case ';':
        pattern += '((?:;[^/?#;]*)*)';
        break;
      case '?': case '&':
        pattern += `(?:\\${operator}([^#]*))?`;
        break;
    }
    groups.push({ names, kind: operator === '?' || operator === '&' || operator === ';' ? 'query' : names.length > 1 || operator === '/' || operator === '.' ? 'list' : 'single' });
  }
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return undefined;
  const values: Record<string, string> = {};
  groups.forEach((group, i) => {
    const raw = match[i + 1];
    if (raw === undefined || raw === '') return;
    if (group.kind === 'single') {
      values[group.names[0]] = decode(raw);
    } else if (group.kind === 'list') {
      const items = raw.replace(/^[/.]/, '').split(/[,/.]/);
      group.names.forEach((name, j) => { if (items[j] !== undefined && items[j] !== '') values[name] = decode(items[j]); });
    } else {
      for (const pair of raw.split(/[&;]/)) {
        if (pair === '') continue;
        const eq = pair.indexOf('=');
        const name = eq < 0 ? pair : pair.slice(0, eq);
        if (group.names.includes(name)) values[name] = eq < 0 ? '' : decode(pair.slice(eq + 1));
      }
    }
  });
  return values;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
