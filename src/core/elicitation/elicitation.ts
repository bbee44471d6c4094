// A server asking the person for something (MCP elicitation): a form to fill (form mode) or a page to
// open in the browser (URL mode). Each request waits in the broker until the person accepts,
// declines or cancels it; a server's pending request never holds up another server.
import { PendingRequests } from '../pending/pendingRequests';
import type { FormField } from '../schema/formFields';

interface ElicitationBase {
  readonly id: string;
  readonly serverId: string;
  /** Why the server asks, in its own words (display-safe text is the sidebar's business). */
  readonly message: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

/** A form the server asks to be filled. */
export interface FormElicitation extends ElicitationBase {
  readonly mode: 'form';
  readonly requestedSchema: Readonly<Record<string, unknown>>;
  readonly fields: readonly FormField[];
}

/** A page the server asks the person to open (a sign-in, a payment…), never opened without a click. */
export interface UrlElicitation extends ElicitationBase {
  readonly mode: 'url';
  readonly url: string;
  readonly elicitationId: string;
}

export type Elicitation = FormElicitation | UrlElicitation;

/** The person's answer, as MCP's elicitation result has it. */
export type ElicitationAnswer =
  | { readonly action: 'accept'; readonly content?: Readonly<Record<string, unknown>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** The server's request went away (the server cancelled it, or the window closed) before the person answered. */
export class ElicitationCancelledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ElicitationCancelledError';
  }
}

/** The elicitations waiting for the person, oldest first. */
export class ElicitationBroker extends PendingRequests<Elicitation, ElicitationAnswer> {
  constructor() {
    super((reason) => new ElicitationCancelledError(reason === 'disposed' ? 'the window closed before the request was answered' : 'the server withdrew the request'));
  }
}
