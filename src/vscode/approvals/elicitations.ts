// Elicitations in the extension: a server's request for the person's input becomes a card in the
// sidebar (a form built from the requested schema, or a page to open), and the person's answer goes
// back to the server. The connector calls `elicit` for every server; each request waits on its own.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
// From their own files, not the folder's index: that would bring the form checks (ajv) along.
import type { Elicitation, ElicitationAnswer, FieldValue } from '../../core/elicitation';
import { ElicitationBroker } from '../../core/elicitation/elicitation';
import { toElicitationCards } from '../../core/elicitation/elicitationView';
import { ElicitationRateLimit, tooManyElicitations } from '../../core/elicitation/rateLimit';
import { urlTarget } from '../../core/elicitation/urlTarget';
import { systemClock } from '../../core/lifecycle/clock';
import type { ServerRegistry } from '../../core/lifecycle';
import { formFields } from '../../core/schema/formFields';
import type { ElicitationCard } from '../../protocol/elicitation';
import { attentionSource, type AttentionSource } from './approvalAttention';
import type { AnswerElicitationParams, ElicitationProblemsResult, ElicitationValuesParams } from '../../protocol/sidebarMessages';
import type { ElicitationAnswer as WireAnswer, ElicitationRequest } from '../../node/connector';
import { notifyInfo } from '../ui/notify';

const GONE = 'The server no longer waits for this answer: it was answered elsewhere or the server withdrew it.';

export class Elicitations implements vscode.Disposable {
  readonly broker = new ElicitationBroker();
  private readonly rate = new ElicitationRateLimit(systemClock);
  /** Set once the registry exists (the connector is built before it). */
  private registry: ServerRegistry | undefined;

  attach(registry: ServerRegistry): void {
    this.registry = registry;
  }

  /** The connector's handler: a card per request, until the person answers or the server cancels. */
  readonly elicit = async (request: ElicitationRequest, signal: AbortSignal): Promise<WireAnswer> => {
    const allowed = this.rate.take(request.serverId);
    if (!allowed.ok) throw tooManyElicitations(this.registry?.get(request.serverId)?.server.name ?? request.serverId, allowed.retryInMs);
    const base = { id: randomUUID(), serverId: request.serverId, message: request.message, createdAt: Date.now() };
    let asked: Elicitation;
    if (request.mode === 'url') asked = { ...base, mode: 'url', url: request.url, elicitationId: request.elicitationId };
    else {
      const schema = isObject(request.requestedSchema) ? request.requestedSchema : {};
      asked = { ...base, mode: 'form', requestedSchema: schema, fields: formFields(schema) };
    }
    const answer: ElicitationAnswer = await this.broker.ask(asked, signal);
    return answer.action === 'accept' ? { action: 'accept', ...(answer.content ? { content: { ...answer.content } } : {}) } : { action: answer.action };
  };

  cards(): ElicitationCard[] {
    return toElicitationCards(this.broker.pending(), (serverId) => this.registry?.get(serverId)?.server.name ?? serverId);
  }

  async check({ elicitationId, values }: ElicitationValuesParams): Promise<ElicitationProblemsResult> {
    const request = this.form(elicitationId);
    const { formAnswer } = await formChecks();
    const answer = formAnswer(request.fields, request.requestedSchema, values as Record<string, FieldValue>);
    return { problems: answer.ok ? [] : answer.problems };
  }

  async answer({ elicitationId, action, values }: AnswerElicitationParams): Promise<ElicitationProblemsResult> {
    const request = this.broker.get(elicitationId);
    if (request === undefined) throw new Error(GONE);
    if (action !== 'accept') {
      this.broker.answer(elicitationId, { action });
      return { problems: [] };
    }
    if (request.mode === 'url') {
      // The page opens only now, on the person's click, and only a web page.
      const target = urlTarget(request.url);
      if (!target.openable) throw new Error(`This link is not opened: ${target.problem ?? 'not a web page'}.`);
      await vscode.env.openExternal(vscode.Uri.parse(target.href, true));
      this.broker.answer(elicitationId, { action: 'accept' });
      return { problems: [] };
    }
    const { formAnswer } = await formChecks();
    const answer = formAnswer(request.fields, request.requestedSchema, (values ?? {}) as Record<string, FieldValue>);
    if (!answer.ok) return { problems: answer.problems };
    if (!this.broker.answer(elicitationId, { action: 'accept', content: answer.content })) throw new Error(GONE);
    return { problems: [] };
  }

  /** A new request while the sidebar is hidden is notified, with Show. */
  attention(): AttentionSource {
    return attentionSource(this.broker, async (request: Elicitation, show) => {
      const name = this.registry?.get(request.serverId)?.server.name ?? request.serverId;
      const what = request.mode === 'url' ? 'asks you to open a page' : 'asks for your input';
      if (await notifyInfo(`"${name}" ${what}: ${request.message}`, 'Show') === 'Show') await show();
    });
  }

  dispose(): void {
    this.broker.dispose();
  }

  private form(id: string): Extract<Elicitation, { mode: 'form' }> {
    const request = this.broker.get(id);
    if (request === undefined) throw new Error(GONE);
    if (request.mode !== 'form') throw new Error('This request asks to open a page, not to fill a form.');
    return request;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The form's checks use the JSON Schema validator (ajv): they load with the first form checked. */
function formChecks(): Promise<typeof import('../../core/elicitation/formAnswer')> {
  return import('../../core/elicitation/formAnswer');
}
