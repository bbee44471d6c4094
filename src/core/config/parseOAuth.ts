// Reads a remote server's `oauth` object. Like the rest of the entry, a wrong type is an error at its
// position (the entry is left out); an unknown key is a warning.
import type { Node } from 'jsonc-parser';
import { describeNode, propertiesOf } from './jsonNodes';
import type { ParseContext } from './parseContext';
import type { OAuthSettings } from './types';

const OAUTH_FIELDS = ['clientId', 'clientSecret', 'scopes', 'callbackPort', 'clientMetadataUrl', 'grantType'];
const GRANT_TYPES = ['authorization_code', 'client_credentials'] as const;

/** Callbacks into the entry reader: expand variables in a string, and record an error. */
export interface OAuthReaderHooks {
  expand(value: string, node: Node): string;
  error(node: Node, code: string, message: string): void;
}

/** The `oauth` settings of server `name`, or undefined when the object has an error (reported). */
export function parseOAuth(ctx: ParseContext, name: string, node: Node, hooks: OAuthReaderHooks): OAuthSettings | undefined {
  const where = `"oauth" of server "${name}"`;
  if (node.type !== 'object') {
    hooks.error(node, 'wrong-type', `${where} must be an object like { "clientId": "…", "scopes": ["read"] }, but it is ${describeNode(node)}.`);
    return undefined;
  }
  let ok = true;
  const fail = (at: Node, message: string): void => {
    ok = false;
    hooks.error(at, 'wrong-type', message);
  };
  const settings: OAuthSettings = {};
  for (const { key, keyNode, valueNode } of propertiesOf(node).values()) {
    if (!valueNode) continue;
    switch (key) {
      case 'clientId': case 'clientSecret': case 'clientMetadataUrl':
        if (valueNode.type !== 'string' || valueNode.value === '') { fail(valueNode, `"${key}" in ${where} must be a non-empty string, but it is ${describeNode(valueNode)}.`); break; }
        settings[key] = hooks.expand(valueNode.value as string, valueNode);
        break;
      case 'scopes': {
        const items = valueNode.type === 'array' ? valueNode.children ?? [] : undefined;
        if (!items || items.some((item) => item.type !== 'string' || /\s/.test(item.value as string) || item.value === '')) {
          fail(valueNode, `"scopes" in ${where} must be an array of scope names without spaces, like ["read", "write"].`);
          break;
        }
        settings.scopes = items.map((item) => item.value as string);
        break;
      }
      case 'callbackPort': {
        const port = valueNode.value as unknown;
        if (valueNode.type !== 'number' || typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
          fail(valueNode, `"callbackPort" in ${where} must be a port number between 1 and 65535, but it is ${describeNode(valueNode)}.`);
          break;
        }
        settings.callbackPort = port;
        break;
      }
      case 'grantType': {
        const grant = GRANT_TYPES.find((value) => value === valueNode.value);
        if (grant === undefined) { fail(valueNode, `"grantType" in ${where} must be ${GRANT_TYPES.map((g) => `"${g}"`).join(' or ')}.`); break; }
        settings.grantType = grant;
        break;
      }
      default:
        ctx.report(keyNode, 'warning', 'unknown-field', `Unknown field "${key}" in ${where}, ignored. Known fields: ${OAUTH_FIELDS.join(', ')}.`);
    }
  }
  if (ok && settings.clientMetadataUrl !== undefined && !/^https:\/\/[^/]+\/./.test(settings.clientMetadataUrl)) {
    fail(propertiesOf(node).get('clientMetadataUrl')!.valueNode!, `"clientMetadataUrl" in ${where} must be an https:// URL with a path (a client ID metadata document).`);
  }
  if (ok && settings.grantType === 'client_credentials' && (settings.clientId === undefined || settings.clientSecret === undefined)) {
    fail(node, `${where} uses "grantType": "client_credentials", which needs "clientId" and "clientSecret".`);
  }
  return ok ? settings : undefined;
}
