// The tool loop with a scripted model: it runs the tools the model asks for, feeds the results back,
// stops when the model answers, after the last round, or when cancelled (and the tool's signal aborts).
import * as assert from 'node:assert/strict';
import { userText, type ModelMessage } from '../../src/core/chat/modelMessages';
import type { ModelToolSpec } from '../../src/core/chat/modelTools';
import { runToolLoop, type ModelReplyPart, type ToolCallRequestPart, type ToolLoopPorts, type ToolRunResult } from '../../src/core/chat/toolLoop';

const ECHO: ModelToolSpec = { name: 'mcp__s__echo', description: 'echo', inputSchema: { type: 'object' } };

/** A model that answers each request with the next reply of a script, recording what it was sent. */
function scripted(replies: ModelReplyPart[][]) {
  const seen: { messages: ModelMessage[]; tools: string[] }[] = [];
  const send: ToolLoopPorts['send'] = async function* (messages, tools) {
    seen.push({ messages: [...messages], tools: tools.map((t) => t.name) });
    for (const part of replies[seen.length - 1] ?? [{ kind: 'text', text: 'out of script' }]) yield part;
  };
  return { seen, send };
}

describe('runToolLoop', () => {
  it('runs the asked tool, gives the model its result, and ends when it answers', async () => {
    const model = scripted([
      [{ kind: 'text', text: 'Let me check. ' }, { kind: 'toolCall', callId: 'c1', name: 'mcp__s__echo', input: { message: 'hi' } }],
      [{ kind: 'text', text: 'It said hi.' }],
    ]);
    const ran: ToolCallRequestPart[] = [];
    const events: string[] = [];
    const outcome = await runToolLoop([userText('echo hi')], {
      send: model.send,
      tools: () => [ECHO],
      runTool: async (call) => { ran.push(call); return { content: [{ kind: 'text', text: 'Echo: hi' }], isError: false }; },
    }, {
      maxRounds: 5, signal: new AbortController().signal,
      onText: (t) => events.push(`text ${t}`), onToolCall: (c) => events.push(`call ${c.name}`), onToolResult: (c, r) => events.push(`result ${c.name} ${r.isError}`),
    });
    assert.equal(outcome.ended, 'answered');
    assert.equal(outcome.rounds, 2);
    assert.equal(outcome.text, 'Let me check. It said hi.');
    assert.deepEqual(ran, [{ callId: 'c1', name: 'mcp__s__echo', input: { message: 'hi' } }]);
    assert.deepEqual(events, ['text Let me check. ', 'call mcp__s__echo', 'result mcp__s__echo false', 'text It said hi.']);
    assert.deepEqual(model.seen[0].tools, ['mcp__s__echo']);
    // The second request holds the assistant's tool call and then the result, with the same call id.
    const second = model.seen[1].messages;
    assert.equal(second.length, 3);
    assert.deepEqual(second[1], { role: 'assistant', parts: [{ kind: 'text', text: 'Let me check. ' }, { kind: 'toolCall', callId: 'c1', name: 'mcp__s__echo', input: { message: 'hi' } }] });
    assert.deepEqual(second[2], { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', content: [{ kind: 'text', text: 'Echo: hi' }], isError: false }] });
    assert.equal(outcome.calls.length, 1);
  });

  it('stops after maxRounds when the model keeps calling tools', async () => {
    const call: ModelReplyPart = { kind: 'toolCall', callId: 'c', name: 'mcp__s__echo', input: {} };
    const model = scripted([[call], [call], [call], [call]]);
    const outcome = await runToolLoop([userText('loop')], { send: model.send, tools: () => [ECHO], runTool: async () => ({ content: [], isError: false }) }, { maxRounds: 3, signal: new AbortController().signal });
    assert.equal(outcome.ended, 'maxRounds');
    assert.equal(outcome.rounds, 3);
    assert.equal(outcome.calls.length, 3);
  });

  it('asks for the tools again each round (the catalog search may add some)', async () => {
    const model = scripted([[{ kind: 'toolCall', callId: 'c', name: 'search', input: {} }], [{ kind: 'text', text: 'done' }]]);
    let offered: ModelToolSpec[] = [ECHO];
    await runToolLoop([userText('find')], {
      send: model.send,
      tools: () => offered,
      runTool: async () => { offered = [ECHO, { ...ECHO, name: 'mcp__s__found' }]; return { content: [], isError: false }; },
    }, { maxRounds: 4, signal: new AbortController().signal });
    assert.deepEqual(model.seen.map((s) => s.tools), [['mcp__s__echo'], ['mcp__s__echo', 'mcp__s__found']]);
  });

  it('ends as cancelled when the signal aborts during a tool, whose signal is the same', async () => {
    const controller = new AbortController();
    const model = scripted([[{ kind: 'toolCall', callId: 'c', name: 'mcp__s__echo', input: {} }], [{ kind: 'text', text: 'never' }]]);
    let toolSignal: AbortSignal | undefined;
    const outcome = await runToolLoop([userText('x')], {
      send: model.send,
      tools: () => [ECHO],
      runTool: (_call, signal): Promise<ToolRunResult> => {
        toolSignal = signal;
        return new Promise((resolve) => {
          signal.addEventListener('abort', () => resolve({ content: [{ kind: 'text', text: 'cancelled' }], isError: true }));
          controller.abort();
        });
      },
    }, { maxRounds: 4, signal: controller.signal });
    assert.equal(outcome.ended, 'cancelled');
    assert.equal(toolSignal?.aborted, true);
    assert.equal(model.seen.length, 1);
  });
});
