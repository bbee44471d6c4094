// What the app panel says when the app stopped waiting for a tool call that then ended: the app will
// never show that result, so the panel names the wait and offers the result itself.
import type { AbandonedCall } from './bridge';

/** "The app stopped waiting after 4 s; the call ran." (or "…ended with an error."). */
export function abandonedCallMessage(call: AbandonedCall): string {
  const seconds = Math.max(1, Math.round(call.waitedMs / 1000));
  return `The app stopped waiting for ${call.tool} after ${seconds} s; the call ${call.result.isError === true ? 'ended with an error' : 'ran'}.`;
}

/** The result as text: its text blocks, else its structured content, else the whole result as JSON. */
export function abandonedCallText(call: AbandonedCall): string {
  const texts = call.result.content.flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []));
  if (texts.length > 0) return texts.join('\n');
  return JSON.stringify(call.result.structuredContent ?? call.result, null, 2);
}

/** The notice, with a Show result button that reveals the result below it. */
export function renderAbandonedCall(call: AbandonedCall): HTMLElement {
  const notice = document.createElement('div');
  notice.className = 'abandoned';
  notice.dataset.testid = 'app-abandoned-call';
  const message = document.createElement('p');
  message.textContent = abandonedCallMessage(call);
  const show = document.createElement('button');
  show.type = 'button';
  show.textContent = 'Show result';
  const result = document.createElement('pre');
  result.dataset.testid = 'app-abandoned-result';
  result.hidden = true;
  result.textContent = abandonedCallText(call);
  show.addEventListener('click', () => {
    result.hidden = !result.hidden;
    show.textContent = result.hidden ? 'Show result' : 'Hide result';
  });
  notice.append(message, show, result);
  return notice;
}
