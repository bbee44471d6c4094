// The check the signature tests of every construct make: whether a command is auto-approved after
// "Always allow" was clicked on each of a list of commands, read with the real bash parser.
import { alwaysAllowRules, isAutoApproved, type ApprovalCheck, type SignatureOptions } from '../../../src/core/shell';
import { shellParser } from './bashParser';

/** Whether `command` is auto-approved after "Always allow" on each of `always`. */
export function check(command: string, always: string[], options: SignatureOptions = {}): ApprovalCheck {
  return isAutoApproved(command, alwaysAllowRules(always, shellParser, options), shellParser, options);
}
