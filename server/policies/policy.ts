import type { HttpError } from "../errors";
import type { User } from "../models";

/**
 * Who may do what, as one rule per action. A rule answers true, or the error the caller
 * gets: 404 for objects that are not the actor's (their existence is not revealed), 403 for
 * what the actor's role or plan does not allow.
 */
export type Rule<Subject> = (actor: User, subject: Subject) => true | HttpError;

export function definePolicy<Rules extends Record<string, Rule<never>>>(rules: Rules) {
  return {
    can<Action extends keyof Rules>(
      actor: User,
      action: Action,
      subject?: Parameters<Rules[Action]>[1],
    ): boolean {
      return rules[action]!(actor, subject as never) === true;
    },
    authorize<Action extends keyof Rules>(
      actor: User,
      action: Action,
      subject?: Parameters<Rules[Action]>[1],
    ): void {
      const verdict = rules[action]!(actor, subject as never);
      if (verdict !== true) throw verdict;
    },
  };
}
