// One refresh per refresh token. Authorization servers commonly rotate refresh tokens: the first
// refresh_token grant with a token invalidates it. When two requests of one server meet an expired
// access token at the same moment (a tool call and the SSE stream reconnecting), the SDK starts two
// refreshes with the same token; the second would fail with invalid_grant, and the SDK would then
// forget the fresh tokens the first just stored and ask the person to sign in again. This fetch lets
// the second share the first one's answer instead. The answers are kept in memory for a few seconds
// only, and never logged.
import type { FetchLike } from '../sdk';

interface Answer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

/** How long a refresh answer is shared with a late twin (one that read the old token just before it was replaced). */
const SHARE_MS = 10_000;

const answers = new Map<string, Promise<Answer>>();

/** `inner` with every refresh_token grant sent once per (token endpoint, refresh token). */
export function refreshOnce(inner: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const body = init?.body;
    if (init?.method !== 'POST' || !(body instanceof URLSearchParams) || body.get('grant_type') !== 'refresh_token') return inner(url, init);
    const key = `${String(url)}\n${body.get('refresh_token') ?? ''}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = inner(url, init).then(async (response) => ({
        status: response.status, statusText: response.statusText, headers: [...response.headers.entries()], body: await response.text(),
      }));
      answers.set(key, answer);
      const forget = (): void => { setTimeout(() => answers.delete(key), SHARE_MS).unref?.(); };
      answer.then(forget, () => answers.delete(key));
    }
    const { status, statusText, headers, body: text } = await answer;
    return new Response(status === 204 || status === 205 || status === 304 ? null : text, { status, statusText, headers });
  };
}

