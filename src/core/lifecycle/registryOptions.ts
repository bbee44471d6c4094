// What a ServerRegistry is given: the connector, the logs, and the ports through which the host answers
// its questions about a server (the start gate, another host, starting on demand).
import type { EffectiveServer } from '../config/types';
import type { Clock } from './clock';
import type { ServerConnector, ServerLog } from './ports';
import type { GateAnswer } from './runDecision';
import type { LifecycleSettings } from './settings';

export interface ServerRegistryOptions {
  connector: ServerConnector;
  /** The log of one server; called once per server id, when its controller is created. */
  logFor(server: EffectiveServer): ServerLog;
  clock?: Clock;
  settings?: Partial<LifecycleSettings>;
  /**
   * The start gate, asked once per server and reconcile (and on a person's Start): `allowed` starts
   * without an explicit start; `undecided` waits for a person, and a running server whose definition
   * changes to an undecided one keeps running its previous (still allowed) definition until the gate
   * decides; `refused` and `restricted` park it. Default: every scope but `project` is allowed, and a
   * project server is refused. Call `applyGate()` after an answer changed.
   */
  gate?(server: EffectiveServer): GateAnswer;
  /**
   * Why a server whose entry enables it must not run here all the same (another host runs it), or
   * undefined. Such a server is held as `disabled` with this reason. Call `applyGate()` after it changed.
   */
  hostedElsewhere?(server: EffectiveServer): string | undefined;
  /**
   * Whether a server starts only when asked (start(id)), never by reconcile: a skill's servers run
   * while their skill is in use. Such a server is otherwise like any other (gate, restarts, stop).
   */
  startsOnDemand?(server: EffectiveServer): boolean;
}
