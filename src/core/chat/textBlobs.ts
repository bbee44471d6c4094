// Which embedded blobs are text. A server may send a page as a base64 blob of type `text/html` or
// `application/json` rather than as text: the model reads it as text, so it is given (and scanned)
// as text. The MIME types read as text are enumerated; any other blob stays data.

/** Types that are text whatever their subtype follows. */
const TEXT_TYPES = new Set([
  'application/json', 'application/xml', 'application/javascript', 'application/ecmascript', 'application/x-javascript',
  'application/yaml', 'application/x-yaml', 'application/toml', 'application/sql', 'application/graphql',
  'application/x-sh', 'application/x-shellscript', 'application/x-www-form-urlencoded', 'application/x-ndjson',
  'application/jsonl', 'application/csv', 'application/rtf', 'application/x-tex', 'application/xhtml+xml',
]);
/** Structured-syntax suffixes (RFC 6839) that are text: `application/ld+json`, `image/svg+xml`. */
const TEXT_SUFFIX = /\+(?:json|xml|yaml)$/;

/** Whether a MIME type (parameters allowed) names text. */
export function isTextMimeType(mimeType: unknown): boolean {
  if (typeof mimeType !== 'string') return false;
  const essence = mimeType.split(';')[0].trim().toLowerCase();
  return essence.startsWith('text/') || TEXT_TYPES.has(essence) || TEXT_SUFFIX.test(essence);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The text of a base64 blob of a text type, or undefined when the type is not text or the bytes are not UTF-8. */
export function textOfBlob(base64: string, mimeType: unknown): string | undefined {
  if (!isTextMimeType(mimeType)) return undefined;
  try {
    const binary = atob(base64.replace(/\s+/g, ''));
    return decoder.decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
