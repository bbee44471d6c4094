// One decision path for a resolved tool call, shared by the extension's approval step and
// `switchboard decide`: gather what the policy needs from the call itself — the shell command's
// signatures for a shell-like tool, what the call would write for a file-writing one — and decide.
import type { EffectiveServer, LaunchDefinition } from '../config/types';
import type { ToolInfo } from '../lifecycle/types';
import { isAutoApproved } from '../shell/commandSignatures';
import { decide, type ApprovalMode, type Decision, type FileEffect, type LocalWriter, type PinnedState, type ShellCommand } from './policy';
import { detectFilePreview, knownLocalWriter, previewToolCall, type FilePreviewPlan, type ServerFileTools } from './preview/detection';
import type { FilePreview, PreviewContext } from './preview/types';
import type { ApprovalRule } from './rules';
import { serverIdentityOf } from './serverIdentity';
import type { ShellParser } from '../shell/syntax';
import { shellCommandArgument } from './shellTool';

/** Where a call's file writes are predicted: the roots (workspace folders), the file system, and what is known of the server. */
export interface CallFiles extends PreviewContext {
  /** The name the server gave itself in `initialize` (server-filesystem's tools are predicted exactly). */
  readonly serverInfoName?: string;
  /** The fileWriteTools setting's entry for this server. */
  readonly fileTools?: ServerFileTools;
}

/** What a call would write, and how the policy counts it. */
export interface CallFileEffect {
  readonly preview: FilePreview;
  readonly effect: FileEffect | undefined;
  /** How well the tool is known to write local files; undefined when guessed from its argument names. */
  readonly localWriter: LocalWriter | undefined;
  /** The arguments that name the files it writes (what an "always allow" for this file or folder is about). */
  readonly pathArguments: readonly string[];
}

/** A shell-like tool's command with its signatures. */
export interface CallShellCommand {
  readonly text: string;
  readonly signatures: string[];
  readonly command: ShellCommand;
}

/** What decideCall reads of a call: the server (who it is, how it runs), the tool and the arguments. */
export interface CallToDecide {
  readonly server: Pick<EffectiveServer, 'name' | 'scope' | 'source'> & { readonly launch: Pick<LaunchDefinition, 'type'> };
  readonly tool: ToolInfo;
  readonly arguments: Record<string, unknown>;
}

/** What the decision depends on besides the call. */
export interface CallDecisionContext {
  readonly mode: ApprovalMode;
  readonly rules: readonly ApprovalRule[];
  readonly serverTrusted: boolean;
  readonly pinnedState: PinnedState;
  /** The poisoning scan found something in the tool's definition. */
  readonly flagged: boolean;
  shellParser(): Promise<ShellParser>;
  readonly files: CallFiles;
}

/** The decision with what was gathered for it (the card shows the signatures and the preview). */
export interface CallDecision {
  readonly decision: Decision;
  readonly shell?: CallShellCommand;
  readonly fileEffect?: CallFileEffect;
}

/** Gathers a call's shell command and file effect, and decides it. */
export async function decideCall(call: CallToDecide, context: CallDecisionContext): Promise<CallDecision> {
  return decideCallNow(call, context);
}

/**
 * decideCall, without waiting when there is nothing to wait for: only a shell-like tool (its parser)
 * and a call that writes files (its preview) make it answer a promise.
 */
export function decideCallNow(call: CallToDecide, context: CallDecisionContext): CallDecision | Promise<CallDecision> {
  const shellArgument = shellCommandArgument(call.tool);
  const filePlan = filePlanOf(call, call.arguments, context.files);
  if (shellArgument === undefined && filePlan === undefined) return decided(call, context, undefined, undefined);
  return (async () => {
    const shell = shellArgument === undefined ? undefined : await shellCommandOf(call, call.arguments, context.shellParser);
    const fileEffect = filePlan === undefined ? undefined : await fileEffectOfPlan(filePlan, call.arguments, context.files);
    return decided(call, context, shell, fileEffect);
  })();
}

function decided(call: CallToDecide, context: CallDecisionContext, shell: CallShellCommand | undefined, fileEffect: CallFileEffect | undefined): CallDecision {
  const decision = decide({
    mode: context.mode,
    server: serverIdentityOf(call.server),
    tool: call.tool.name,
    annotations: call.tool.annotations,
    serverTrusted: context.serverTrusted,
    pinnedState: context.pinnedState,
    flagged: context.flagged,
    rules: context.rules,
    args: call.arguments,
    roots: context.files.roots,
    shellCommand: shell?.command,
    fileEffect: fileEffect?.effect,
    localWriter: fileEffect?.localWriter,
  });
  return { decision, ...(shell ? { shell } : {}), ...(fileEffect ? { fileEffect } : {}) };
}

/** The shell command of a shell-like tool's call (with these arguments), or undefined for any other call. */
export async function shellCommandOf(call: Pick<CallToDecide, 'tool'>, args: Record<string, unknown>, shellParser: () => Promise<ShellParser>): Promise<CallShellCommand | undefined> {
  const argument = shellCommandArgument(call.tool);
  const text = argument === undefined ? undefined : args[argument];
  if (typeof text !== 'string') return undefined;
  const parser = await shellParser();
  return {
    text,
    signatures: isAutoApproved(text, [], parser).signatures,
    command: {
      command: text,
      check: (allowed) => {
        const check = isAutoApproved(text, allowed, parser);
        return { approved: check.autoApproved, reason: check.reason };
      },
    },
  };
}

/** What a call (with these arguments) would write, or undefined when it writes no file a preview understands. */
export async function fileEffectOfCall(call: Pick<CallToDecide, 'server' | 'tool'>, args: Record<string, unknown>, files: CallFiles): Promise<CallFileEffect | undefined> {
  const plan = filePlanOf(call, args, files);
  return plan === undefined ? undefined : fileEffectOfPlan(plan, args, files);
}

/** How a call's file writes would be previewed, found without reading a file; undefined when it writes none a preview understands. */
function filePlanOf(call: Pick<CallToDecide, 'server' | 'tool'>, args: Record<string, unknown>, files: CallFiles): FilePreviewPlan | undefined {
  return detectFilePreview({
    serverInfoName: files.serverInfoName,
    tool: call.tool.name,
    args,
    ...(files.fileTools ? { fileTools: files.fileTools } : {}),
    inputSchema: call.tool.inputSchema,
    openWorld: call.tool.annotations?.openWorldHint === true,
    local: call.server.launch.type === 'stdio',
  }, files.roots);
}

async function fileEffectOfPlan(plan: FilePreviewPlan, args: Record<string, unknown>, files: CallFiles): Promise<CallFileEffect> {
  const preview = await previewToolCall(plan, args, files);
  return { preview, effect: effectOf(preview), localWriter: knownLocalWriter(plan), pathArguments: writtenPathArguments(plan) };
}

function writtenPathArguments(plan: FilePreviewPlan): string[] {
  if (plan.kind === 'content') return [plan.pathArgument];
  return plan.tool === 'move_file' ? ['source', 'destination'] : ['path'];
}

/**
 * How the policy counts a prediction: a path outside every root, or a prediction that failed (it cannot
 * tell where the write lands, so it never lets the call through), or writes inside the roots.
 */
function effectOf(preview: FilePreview): FileEffect | undefined {
  if ((preview.outsideRoots?.length ?? 0) > 0) return 'outsideRoots';
  if (preview.error !== undefined) return 'unknown';
  return preview.changes.length > 0 ? 'insideRoots' : undefined;
}
