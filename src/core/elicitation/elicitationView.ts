// Projects pending elicitations onto the sidebar's cards. Pure; the line below stops the build when a
// field kind is added on one side of the protocol only.
import type { ElicitationCard, FieldKindRow } from '../../protocol/elicitation';
import type { FieldKind } from '../schema/formFields';
import { revealHiddenCharacters } from '../sidebarSnapshot';
import type { Elicitation } from './elicitation';
import { urlTarget } from './urlTarget';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const vocabulariesMatch: Same<FieldKind, FieldKindRow> = true;
void vocabulariesMatch;

export function toElicitationCards(pending: readonly Elicitation[], serverName: (serverId: string) => string): ElicitationCard[] {
  return pending.map((request): ElicitationCard => {
    const base = {
      id: request.id,
      serverId: request.serverId,
      serverName: serverName(request.serverId),
      message: revealHiddenCharacters(request.message),
      createdAt: request.createdAt,
    };
    if (request.mode === 'form') return { ...base, mode: 'form', fields: request.fields.map((field) => ({ ...field, ...(field.choices ? { choices: [...field.choices] } : {}) })) };
    const target = urlTarget(request.url);
    return { ...base, mode: 'url', url: target.href, host: target.host, scheme: target.scheme, openable: target.openable, ...(target.problem ? { problem: target.problem } : {}) };
  });
}
