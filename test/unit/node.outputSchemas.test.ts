// The output schemas of a tools listing are compiled when the list arrives (catalogPages.ts), so that the
// first tools/call after it compiles none — the v2 SDK Client would otherwise compile every tool's schema
// on that call, between a person's Approve and the call reaching the server — and the Client still checks
// structured results against them. Against the real SDK Client, over a transport that answers as a server.
import * as assert from 'node:assert/strict';
import { BoundedSchemaValidator } from '../../src/node/boundedSchemaValidator';
import { listCatalogPage } from '../../src/node/catalogPages';
import { AjvJsonSchemaValidator, type JSONRPCMessage, type Transport } from '../../src/node/sdk';
import { SessionClient } from '../../src/node/sessionClient';

const objectOf = (property: string, type: string) => ({ type: 'object', properties: { [property]: { type } }, required: [property] });
const TOOLS = [
  { name: 'count', inputSchema: { type: 'object' }, outputSchema: objectOf('count', 'number') },
  { name: 'name', inputSchema: { type: 'object' }, outputSchema: objectOf('name', 'string') },
  { name: 'plain', inputSchema: { type: 'object' } },
];

/** Answers initialize, tools/list with TOOLS, and tools/call with `structured`. */
class AnsweringTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  structured: unknown = { count: 3 };

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) || !('id' in message)) return;
    const params = message.params as { protocolVersion?: string } | undefined;
    const result = message.method === 'initialize'
      ? { protocolVersion: params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'answering', version: '1.0.0' } }
      : message.method === 'tools/list'
        ? { tools: TOOLS }
        : { content: [{ type: 'text', text: JSON.stringify(this.structured) }], structuredContent: this.structured };
    void Promise.resolve().then(() => this.onmessage?.({ jsonrpc: '2.0', id: message.id, result } as JSONRPCMessage));
  }
}

describe('output schemas compiled with the tools listing', () => {
  const compiled: unknown[] = [];
  const original = AjvJsonSchemaValidator.prototype.getValidator;

  beforeEach(() => {
    compiled.length = 0;
    AjvJsonSchemaValidator.prototype.getValidator = function spy<T>(this: AjvJsonSchemaValidator, schema: Parameters<typeof original>[0]) {
      compiled.push(schema);
      return original.call(this, schema) as ReturnType<typeof original<T>>;
    };
  });

  afterEach(() => {
    AjvJsonSchemaValidator.prototype.getValidator = original;
  });

  async function connected() {
    const transport = new AnsweringTransport();
    const client = new SessionClient({ name: 'output-schemas-test', version: '1.0.0' }, { jsonSchemaValidator: new BoundedSchemaValidator(), versionNegotiation: { mode: 'legacy' } });
    await client.connect(transport);
    return { transport, client };
  }

  it('compiles every output schema when the list arrives, and none on the first call after it', async () => {
    const { client } = await connected();
    const page = await listCatalogPage(client, 'tools', undefined, {});
    assert.deepEqual(page.items.map((t) => t.name), ['count', 'name', 'plain']);
    assert.deepEqual(compiled, [TOOLS[0]!.outputSchema, TOOLS[1]!.outputSchema]);
    compiled.length = 0;
    const result = await client.callTool({ name: 'count', arguments: {} });
    assert.deepEqual(result.structuredContent, { count: 3 });
    assert.deepEqual(compiled, [], 'the call compiled schemas the listing had compiled already');
    await client.close();
  });

  it('still refuses a structured result that does not fit the tool\'s output schema', async () => {
    const { client, transport } = await connected();
    await listCatalogPage(client, 'tools', undefined, {});
    transport.structured = { count: 'three' };
    await assert.rejects(client.callTool({ name: 'count', arguments: {} }), /does not match the tool's output schema/);
    await client.close();
  });

  it('keeps only the latest listing\'s schemas, and compiles one it has not seen when asked', () => {
    const validator = new BoundedSchemaValidator();
    validator.prepare([{ outputSchema: objectOf('a', 'number') }]);
    const first = validator.getValidator(JSON.parse(JSON.stringify(objectOf('a', 'number'))));
    assert.equal(validator.getValidator(objectOf('a', 'number')), first, 'a schema of the listing is compiled once');
    validator.prepare([{ outputSchema: objectOf('b', 'string') }]);
    assert.notEqual(validator.getValidator(objectOf('a', 'number')), first, 'the previous listing was let go');
    assert.equal(validator.getValidator(objectOf('b', 'string'))({ b: 'x' }).valid, true);
    assert.equal(validator.getValidator(objectOf('b', 'string'))({ b: 1 }).valid, false);
  });

  it('prepares no schema nested past the bound, and refuses it when asked', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) deep = { type: 'object', properties: { x: deep } };
    const validator = new BoundedSchemaValidator();
    validator.prepare([{ outputSchema: deep }]);
    assert.deepEqual(compiled, []);
    assert.match(validator.getValidator(deep)({}).errorMessage ?? '', /nested more than/);
  });
});
