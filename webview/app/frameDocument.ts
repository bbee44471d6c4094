// The document the app's frame is given: the server's HTML, parsed inertly (nothing in it runs or
// loads while the panel reads it), with the frame's Content-Security-Policy as the first element of
// its head and the policy's nonce on the app's own scripts. Scripts the app adds later need a source
// its resource declared. A policy element the app brings stays: policies only add up, never loosen.

/** The frame's HTML (serialized, for `srcdoc`). */
export function frameDocument(html: string, csp: string, nonce: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const meta = doc.createElement('meta');
  meta.setAttribute('http-equiv', 'Content-Security-Policy');
  meta.setAttribute('content', csp);
  doc.head.prepend(meta);
  for (const script of Array.from(doc.querySelectorAll('script'))) script.setAttribute('nonce', nonce);
  return `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`;
}
