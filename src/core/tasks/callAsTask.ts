// Whether a call goes out as a task: the tool must support it (its `execution.taskSupport`), and then
// either the tool insists (`required`: a plain call would be refused) or the setting asks for it.
import type { ToolInfo } from '../lifecycle/types';
import type { TaskCallMode } from './types';

/** True when this tool's call should be created as a task under `mode`. */
export function callsAsTask(tool: Pick<ToolInfo, 'execution'>, mode: TaskCallMode): boolean {
  const support = tool.execution?.taskSupport;
  if (support === 'required') return true;
  if (support === 'optional') return mode === 'whenSupported';
  // 'forbidden', absent, or a value this host does not know: a plain call.
  return false;
}

/** Reads the setting's value, falling back to the default for anything not understood. */
export function taskCallMode(value: unknown): TaskCallMode {
  return value === 'whenRequired' ? 'whenRequired' : 'whenSupported';
}
