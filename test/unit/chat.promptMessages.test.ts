// An MCP prompt's messages as the start of a conversation, and the @mcp /help text.
import * as assert from 'node:assert/strict';
import { chatHelpMarkdown, promptCommandNames } from '../../src/core/chat/chatHelp';
import { promptToModelMessages } from '../../src/core/chat/promptMessages';

describe('promptToModelMessages', () => {
  it('keeps text, passes images as data, inlines embedded text resources and joins turns of one role', () => {
    const messages = promptToModelMessages([
      { role: 'user', content: { type: 'text', text: 'Analyze this:' } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'demo://r/1', mimeType: 'text/plain', text: 'Resource 1' } } },
      { role: 'user', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
      { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
      { role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
      { role: 'user', content: { type: 'resource_link', uri: 'file:///a.md', name: 'a.md' } },
      { role: 'user', content: 'not a block' },
    ]);
    assert.deepEqual(messages, [
      { role: 'user', parts: [
        { kind: 'text', text: 'Analyze this:' },
        { kind: 'text', text: '[demo://r/1]\nResource 1' },
        { kind: 'data', mimeType: 'image/png', data: 'iVBORw0KGgo=', description: 'image (image/png, 8 bytes)' },
      ] },
      { role: 'assistant', parts: [{ kind: 'text', text: 'Sure.' }, { kind: 'text', text: '[image (image/png, 3 bytes)]' }] },
      { role: 'user', parts: [{ kind: 'text', text: '[resource link: file:///a.md (a.md)]' }, { kind: 'text', text: '[a prompt message with content of no known type]' }] },
    ]);
  });
});

describe('@mcp /help', () => {
  const servers = [
    {
      id: 'everything', state: 'ready', ready: true, tools: 13,
      resources: [{ uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md' }],
      templates: [{ uriTemplate: 'demo://resource/dynamic/text/{resourceId}', name: 'Dynamic Text' }],
      prompts: [{ name: 'args-prompt', description: 'A prompt with two arguments', arguments: [{ name: 'city', required: true }, { name: 'state' }] }],
    },
    { id: 'memory', state: 'needs trust', ready: false, tools: 0, resources: [], templates: [], prompts: [] },
  ];

  it('lists the servers with their state, the prompts as slash commands and how to mention resources', () => {
    const help = chatHelpMarkdown(servers);
    assert.match(help, /- `everything`: ready — 13 tools, 2 resources, 1 prompt$/m);
    assert.match(help, /- `memory`: needs trust\n/);
    assert.match(help, /- `\/mcp__everything__args-prompt <city> \[state\]` — A prompt with two arguments/);
    assert.match(help, /@mcp summarize @everything:demo:\/\/resource\/static\/document\/architecture\.md/);
    assert.match(help, /`@everything:demo:\/\/resource\/dynamic\/text\/\{resourceId\}`/);
  });

  it('says what to do when there is no server', () => {
    assert.match(chatHelpMarkdown([]), /No MCP server is configured/);
  });

  it('names prompts like tools, so they resolve back', () => {
    assert.deepEqual([...promptCommandNames([{ id: 'my server', prompts: [{ name: 'review.code' }] }])], [['mcp__my_server__review_code', { server: 'my server', prompt: 'review.code' }]]);
  });
});
