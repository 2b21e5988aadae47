/**
 * A transition's condition in a store's SQL: the stages it leaves and its guards, from the table of
 * stages.ts, in the store's dialect. Each store writes the move itself (what it sets and stores) and
 * takes the condition from here, so that no store can check less than the table says.
 */
import { type Guard, type Stage, TRANSITIONS, type TransitionName } from "./stages.js";

export interface Dialect {
  /** The stage condition: the payment is in one of `from`. */
  stages(from: readonly Stage[]): string;
  /** Each guard's condition, with the store's named parameters (an empty string: checked otherwise). */
  guards: Record<Guard, string>;
}

export function conditionOf(transition: TransitionName, dialect: Dialect): string {
  const { from, guards } = TRANSITIONS[transition];
  const parts = [from.length ? dialect.stages(from) : "", ...guards.map((guard: Guard) => dialect.guards[guard])];
  return parts.filter(Boolean).join(" AND ");
}
