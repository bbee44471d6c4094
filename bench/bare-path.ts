// The baseline: the MCP TypeScript SDK used bare, doing the same work on the wire as Switchboard's side
// — one Client per server over the SDK's StdioClientTransport, started with Promise.all, the same
// client capabilities (roots), every catalog kind listed once, then client.callTool. No lifecycle,
// no catalog, no policy. Bundled by build.mjs and run by run.mjs in its own process. The same SDK client
// package as Switchboard's (v2), in its default negotiation: it sends `initialize` at once, without the
// `server/discover` probe Switchboard sends first, so the probe's round trip counts against Switchboard.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { main, type BenchSide, type Block, type WorkloadConfig } from './workload';

class BareSide implements BenchSide {
  private readonly clients: Client[] = [];
  private serverMessages = 0;
  private stderrBytes = 0;

  constructor(private readonly config: WorkloadConfig) {}

  async start(initialized: () => void): Promise<void> {
    let pending = this.config.servers;
    await Promise.all(Array.from({ length: this.config.servers }, async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [this.config.everything, 'stdio'],
        // The same environment Switchboard gives its servers (the user's whole environment): the SDK's
        // default is a short allowlist, and a child's startup cost depends on what it inherits (e.g.
        // NODE_EXTRA_CA_CERTS makes every Node server load extra certificates).
        env: { ...process.env, SWITCHBOARD_BENCH_RUN: this.config.marker } as Record<string, string>,
        // Piped and read, as Switchboard does (the SDK's default would inherit it).
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => { this.stderrBytes += chunk.length; });
      const client = new Client({ name: 'bench-bare-sdk', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
      client.setRequestHandler('roots/list', () => ({ roots: [] }));
      client.setNotificationHandler('notifications/message', () => { this.serverMessages++; });
      this.clients.push(client);
      await client.connect(transport);
      if (--pending === 0) initialized();
      const capabilities = client.getServerCapabilities() ?? {};
      await Promise.all([
        capabilities.tools ? client.listTools() : undefined,
        capabilities.resources ? client.listResources() : undefined,
        capabilities.resources ? client.listResourceTemplates() : undefined,
        capabilities.prompts ? client.listPrompts() : undefined,
      ]);
    }));
  }

  async echo(message: string): Promise<Block[]> {
    const result = await this.clients[0].callTool({ name: 'echo', arguments: { message } });
    return result.content as Block[];
  }

  async stop(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
  }

  extra(): Record<string, unknown> {
    return { serverMessages: this.serverMessages, stderrBytes: this.stderrBytes };
  }
}

main('bare', (config) => new BareSide(config));
