// The `switchboard.tasks.callAsTask` setting: when a tool that supports tasks is called as one.
import * as vscode from 'vscode';
import { taskCallMode } from '../../core/tasks/callAsTask';
import type { TaskCallMode } from '../../core/tasks/types';

export const CALL_AS_TASK_SETTING = 'tasks.callAsTask';

/** Read at every call, so a change applies to the next one. */
export function readTaskCallMode(): TaskCallMode {
  return taskCallMode(vscode.workspace.getConfiguration('switchboard').get<unknown>(CALL_AS_TASK_SETTING));
}
