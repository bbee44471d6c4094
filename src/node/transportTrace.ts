// Protocol trace: every JSON-RPC message of one connection, both directions, to the server's log.
import type { ServerLog } from '../core/lifecycle/ports';
import type { Transport } from './sdk';

/**
 * Makes `transport` report each message to `log.trace` before it is sent or handled. Call it before
 * the SDK Client connects: Protocol.connect keeps an `onmessage` that is already set and calls it
 * first, so the trace sees every message, including the initialize exchange.
 */
export function traceTransport(transport: Transport, log: Pick<ServerLog, 'trace'>): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    log.trace('send', message);
    return send(message, options);
  };
  transport.onmessage = (message) => log.trace('receive', message);
}
