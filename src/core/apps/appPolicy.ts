// The Content-Security-Policy of an app's frame, built from what its resource declares in
// `_meta.ui.csp`, and the policy of the panel page around it. Nothing is allowed that the resource does
// not name: no network, no nested frame, no plugin, no form submission. An origin is taken only in the
// forms this file understands (an https or wss origin, `*.` subdomains, http/ws on the loopback);
// anything else — a keyword, a scheme, a path, a wildcard host — is left out and named, so the policy
// only ever gets stricter than declared.
//
// Scripts: the frame's own policy names no nonce and no hash. A nonce is readable by the app's script,
// which can copy it onto a script element of its own (and a nonced script's dynamic imports carry it);
// a hash admits a script element from any URL whose `integrity` names it. So the frame's script-src is
// `'unsafe-inline'` and the declared resource origins: a script loads from a declared origin or not at
// all, whatever its attributes. The panel's policy, which the frame's document inherits (srcdoc), admits
// inline scripts by hash — the app's own only — and the panel's script by nonce; in the frame both
// policies hold, so an inline script runs only if it is the app's own, and a script (or anything else)
// loads only from where the resource declared.
/** The `csp` fields of the Apps extension, each with the directives it opens and the schemes it may name. */
const CSP_FIELDS = {
  connectDomains: { directives: ['connect-src'], schemes: ['https', 'wss', 'http', 'ws'] },
  resourceDomains: { directives: ['script-src', 'style-src', 'img-src', 'font-src', 'media-src'], schemes: ['https', 'http'] },
  frameDomains: { directives: ['frame-src'], schemes: ['https', 'http'] },
  baseUriDomains: { directives: ['base-uri'], schemes: ['https', 'http'] },
} as const;

type CspField = keyof typeof CSP_FIELDS;

/** The permissions the Apps extension names; the host grants none of them (the frame gets no `allow`). */
const KNOWN_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];

/** One directive and its sources, in the order they are written. */
export type CspDirectives = ReadonlyArray<readonly [directive: string, sources: readonly string[]]>;

/** The frame's policy, and what the resource declared that it does not grant. */
export interface AppPolicy {
  readonly directives: CspDirectives;
  /** Declared entries left out, each with why ("connectDomains: \"*\" is not an origin"). */
  readonly refused: readonly string[];
  /** Permissions the resource asked for (none is granted). */
  readonly permissionsAsked: readonly string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * The CSP source for one declared origin, or why it is not taken. Plain http and ws only for the
 * loopback (a server in development); a `*.` wildcard only before a name of at least two labels.
 */
export function cspOrigin(value: unknown, schemes: readonly string[]): { source: string } | { refused: string } {
  if (typeof value !== 'string') return { refused: `${JSON.stringify(value)} is not a string` };
  const match = /^([a-z]+):\/\/([^/:?#]+|\[::1\])(?::(\d{1,5}))?\/?$/i.exec(value.trim());
  if (match === null) return { refused: `${JSON.stringify(value)} is not an origin (scheme://host[:port])` };
  const scheme = match[1].toLowerCase();
  const host = match[2].toLowerCase();
  const port = match[3];
  if (!schemes.includes(scheme)) return { refused: `${JSON.stringify(value)}: the scheme ${scheme} is not allowed here` };
  const loopback = LOOPBACK.has(host);
  if ((scheme === 'http' || scheme === 'ws') && !loopback) return { refused: `${JSON.stringify(value)}: ${scheme} only for the loopback` };
  if (!loopback && !HOST.test(host)) return { refused: `${JSON.stringify(value)}: ${host} is not a host name` };
  if (host.startsWith('*.') && host.split('.').length < 3) return { refused: `${JSON.stringify(value)}: a wildcard needs a name of two labels after it` };
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return { refused: `${JSON.stringify(value)}: port ${port} is out of range` };
  return { source: `${scheme}://${host}${port === undefined ? '' : `:${port}`}` };
}

/** The frame's own policy for what a resource declared in its `_meta.ui` (`declared`, as the server sent it). */
export function appPolicy(declared: unknown): AppPolicy {
  const refused: string[] = [];
  const opened = new Map<string, string[]>();
  const ui = isRecord(declared) ? declared : {};
  if (declared !== undefined && !isRecord(declared)) refused.push('_meta.ui is not an object');
  const csp = ui.csp;
  if (csp !== undefined && !isRecord(csp)) refused.push('csp is not an object');
  for (const [field, values] of Object.entries(isRecord(csp) ? csp : {})) {
    if (!(field in CSP_FIELDS)) {
      refused.push(`csp.${field} is not a field this host understands`);
      continue;
    }
    if (!Array.isArray(values)) {
      refused.push(`csp.${field} is not a list`);
      continue;
    }
    const { directives, schemes } = CSP_FIELDS[field as CspField];
    for (const value of values) {
      const origin = cspOrigin(value, schemes);
      if ('refused' in origin) {
        refused.push(`csp.${field}: ${origin.refused}`);
        continue;
      }
      for (const directive of directives) {
        const sources = opened.get(directive) ?? [];
        if (!sources.includes(origin.source)) sources.push(origin.source);
        opened.set(directive, sources);
      }
    }
  }
  const permissions = ui.permissions;
  if (permissions !== undefined && !isRecord(permissions)) refused.push('permissions is not an object');
  const permissionsAsked = Object.keys(isRecord(permissions) ? permissions : {});
  for (const name of permissionsAsked) if (!KNOWN_PERMISSIONS.includes(name)) refused.push(`permissions.${name} is not a permission this host understands`);

  const or = (directive: string, base: string[]): string[] => {
    const sources = [...base, ...(opened.get(directive) ?? [])];
    return sources.length > 0 ? sources : ["'none'"];
  };
  const directives: CspDirectives = [
    ['default-src', ["'none'"]],
    // Inline scripts are the app's code; no nonce or hash, which a script could reuse (see above).
    ['script-src', or('script-src', ["'unsafe-inline'"])],
    // Inline styles cannot run code; apps set their theme through them.
    ['style-src', or('style-src', ["'unsafe-inline'"])],
    ['img-src', or('img-src', ['data:'])],
    ['font-src', or('font-src', ['data:'])],
    ['media-src', or('media-src', ['data:'])],
    ['connect-src', or('connect-src', [])],
    ['frame-src', or('frame-src', [])],
    ['base-uri', or('base-uri', [])],
    ['form-action', ["'none'"]],
    ['object-src', ["'none'"]],
  ];
  return { directives, refused, permissionsAsked };
}

/** The policy as the text of a Content-Security-Policy header or meta element. */
export function cspText(directives: CspDirectives): string {
  return directives.map(([directive, sources]) => `${directive} ${sources.join(' ')}`).join('; ');
}

/** A nonce of the panel's script: base64, at least 16 characters (no quote, space or `;` can reach the policy). */
const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;
/** A CSP hash source of SHA-256 (the form `scriptHash` gives). */
const SHA256_SOURCE = /^'sha256-[A-Za-z0-9+/]{43}='$/;
/** `'self'`, a scheme source or a scheme-and-host source (what VS Code's `webview.cspSource` lists), nothing that could end a directive. */
const STYLE_SOURCE = /^('self'|[a-z][a-z0-9+.-]*:(\/\/[A-Za-z0-9.*:[\]-]+)?)$/;

/** What the panel page adds to the app's policy for itself. */
export interface PanelSources {
  /** The nonce on the panel's one script. */
  readonly scriptNonce: string;
  /** The hashes of the app's inline scripts (`'sha256-…'`, from `frameDocument`). */
  readonly inlineScriptHashes: readonly string[];
  /** Where the panel's stylesheet comes from (`webview.cspSource`, split at its spaces). */
  readonly styleSources: readonly string[];
}

/**
 * The panel page's policy around the frame of `frame` (the frame's own directives): the same
 * directives, but scripts by the panel's nonce, the app's inline script hashes and the declared
 * origins — never `'unsafe-inline'` — and the panel's stylesheet besides. The frame's document
 * inherits it: whatever the app adds must pass both. Throws on a nonce, hash or source it does not
 * understand.
 */
export function panelDirectives(frame: CspDirectives, own: PanelSources): CspDirectives {
  if (!NONCE.test(own.scriptNonce)) throw new Error('the script nonce must be at least 16 base64 characters');
  for (const hash of own.inlineScriptHashes) if (!SHA256_SOURCE.test(hash)) throw new Error(`${JSON.stringify(hash)} is not a sha256 hash source`);
  for (const source of own.styleSources) if (!STYLE_SOURCE.test(source)) throw new Error(`${JSON.stringify(source)} is not 'self', a scheme or a host source`);
  const declared = (sources: readonly string[]): string[] => sources.filter((s) => !s.startsWith("'"));
  return frame.map(([directive, sources]): readonly [string, readonly string[]] => {
    if (directive === 'script-src') return [directive, [`'nonce-${own.scriptNonce}'`, ...new Set(own.inlineScriptHashes), ...declared(sources)]];
    if (directive === 'style-src') return [directive, [...sources, ...own.styleSources.filter((s) => !sources.includes(s))]];
    return [directive, sources];
  });
}
