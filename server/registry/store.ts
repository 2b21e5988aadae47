/**
 * The registry store: what the read endpoints need, and one write path (seed and import) that
 * applies a whole batch in one transaction. Asynchronous, so that it can live in a shared database
 * (PostgreSQL) as well as in an embedded file (SQLite). Record types come from the contract
 * (spec/registry/import.tsp); the store never decides name rules, it enforces uniqueness.
 */
import type { components } from "../../generated/types/registry.js";

type Schemas = components["schemas"];
export type AgentListItem = Schemas["AgentListItem"];
export type Manifest = Schemas["Manifest"];
export type SkillFamily = Schemas["SkillFamily"];
export type PassportRecord = Schemas["PassportRecord"];
export type RegistryImport = Schemas["RegistryImport"];

/** A held name with what its existence check and aliases need. */
export type Passport = Omit<PassportRecord, "manifest" | "card">;

/** Unconstrained identity-card JSON (the contract leaves its content open). */
export type IdentityCard = Record<string, unknown>;

export interface RegistryStore {
  /** Passports, newest first (ties by name). */
  listAgents(limit: number): Promise<AgentListItem[]>;
  /** The passport holding a normalized name. */
  findPassport(name: string): Promise<Passport | undefined>;
  manifest(name: string): Promise<Manifest | undefined>;
  card(name: string): Promise<IdentityCard | undefined>;
  /** Families and options in the order they were first written. */
  skills(): Promise<SkillFamily[]>;
  /** True when the store holds neither passports nor skills. */
  isEmpty(): Promise<boolean>;
  /** The passport holding a unique value (`name` normalized, `assetAddress`, `primarySol`), if any. */
  holderOf(
    field: "name" | "assetAddress" | "primarySol",
    value: string,
  ): Promise<{ name: string; kind: string } | undefined>;
  /** The passport of a normalized name exactly as it was written (the import format's record). */
  record(name: string): Promise<PassportRecord | undefined>;
  /**
   * Writes a batch that already passed `checkImport`: skill families merge by id, passports are
   * inserted, or with `upsert` replace the passport of the same name (its capabilities too). All or
   * nothing; a uniqueness or catalog violation throws `StoreConflict`.
   */
  write(batch: RegistryImport, options?: { upsert?: boolean }): Promise<void>;
  /** Resolves when the store answers a read now (`GET /readyz` asks); gives up when `signal` aborts. */
  ping(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** A batch the store refused, naming the record and field (`agents[3].assetAddress`). */
export class StoreConflict extends Error {
  constructor(
    readonly at: string,
    message: string,
  ) {
    super(message);
  }
}
