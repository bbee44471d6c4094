// A skill's servers run while the skill is in use and stop once it has been idle for a while. A turn
// that uses the skill holds it (it is never idle mid-turn, however long a tool call takes); when the
// last hold is released the idle time starts, and a new use before it ends starts it over.
import type { Disposable } from '../disposable';
import type { Clock } from '../lifecycle/clock';

export interface SkillIdleStopOptions {
  clock: Clock;
  /** The idle time, read at each release (the setting may change). */
  idleMs(): number;
  /** Stops the skill's servers. */
  stop(skill: string): void;
}

interface Activity {
  holds: number;
  timer?: Disposable;
  lastUsed: number;
}

/** Tracks which skills are in use and stops the idle ones. */
export class SkillIdleStop implements Disposable {
  private readonly skills = new Map<string, Activity>();

  constructor(private readonly options: SkillIdleStopOptions) {}

  /** Holds `skill` as in use until the returned function is called (calling it twice releases once). */
  hold(skill: string): () => void {
    const activity = this.skills.get(skill) ?? { holds: 0, lastUsed: 0 };
    activity.timer?.dispose();
    activity.timer = undefined;
    activity.holds++;
    activity.lastUsed = this.options.clock.now();
    this.skills.set(skill, activity);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(skill);
    };
  }

  /** The skills in use or not yet idle long enough, with when each was last used. */
  active(): { skill: string; holds: number; lastUsed: number }[] {
    return [...this.skills].map(([skill, activity]) => ({ skill, holds: activity.holds, lastUsed: activity.lastUsed }));
  }

  /** Forgets a skill (its servers were stopped some other way, or it is gone). */
  forget(skill: string): void {
    this.skills.get(skill)?.timer?.dispose();
    this.skills.delete(skill);
  }

  dispose(): void {
    for (const activity of this.skills.values()) activity.timer?.dispose();
    this.skills.clear();
  }

  private release(skill: string): void {
    const activity = this.skills.get(skill);
    if (activity === undefined) return;
    activity.holds = Math.max(0, activity.holds - 1);
    activity.lastUsed = this.options.clock.now();
    if (activity.holds > 0) return;
    activity.timer = this.options.clock.setTimeout(() => {
      if (this.skills.get(skill) !== activity || activity.holds > 0) return;
      this.skills.delete(skill);
      this.options.stop(skill);
    }, Math.max(0, this.options.idleMs()));
  }
}
