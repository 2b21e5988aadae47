/**
 * What the SQLite and PostgreSQL registry stores share: the passport columns, a stored row as the
 * contract's shapes, the catalog assembled from its rows, and the conflict a refused write reports.
 */
import type { UniqueField } from "./records.js";
import {
  type AgentListItem,
  type IdentityCard,
  type Manifest,
  type Passport,
  type PassportRecord,
  type SkillFamily,
  StoreConflict,
} from "./store.js";

export type PassportRow = {
  name: string;
  kind: "native" | "byoa";
  display_name: string | null;
  asset_address: string;
  owner_wallet: string;
  description: string;
  created_at: number | string;
  primary_sol: string | null;
};

export type DocumentsRow = { manifest: string | null; card: string | null };

export const PASSPORT_COLUMNS =
  "name, kind, display_name, asset_address, owner_wallet, description, created_at, primary_sol";

/** `SET` of an upsert: every column but the name takes the written value. */
export const REPLACE_COLUMNS = PASSPORT_COLUMNS.split(", ")
  .slice(1)
  .concat("manifest", "card")
  .map((column) => `${column} = excluded.${column}`)
  .join(", ");

/** Unique `passports` columns a write can collide on, with the record field that fills each, in report order. */
export const UNIQUE_COLUMNS = new Map<string, UniqueField>([
  ["name", "name"],
  ["asset_address", "assetAddress"],
  ["primary_sol", "primarySol"],
]);

/** The values of an insert of `PASSPORT_COLUMNS, manifest, card`, in order. */
export function passportValues(record: PassportRecord): unknown[] {
  return [
    record.name,
    record.kind ?? "native",
    record.displayName ?? null,
    record.assetAddress,
    record.ownerWallet,
    record.description,
    record.createdAt,
    record.primarySol ?? null,
    record.manifest ? JSON.stringify(record.manifest) : null,
    record.card ? JSON.stringify(record.card) : null,
  ];
}

/** The list shape: only bring-your-own-agent passports carry their kind and original casing. */
export function listItem(row: PassportRow): AgentListItem {
  const item: AgentListItem = {
    name: row.name,
    assetAddress: row.asset_address,
    ownerWallet: row.owner_wallet,
    description: row.description,
    createdAt: Number(row.created_at),
  };
  return row.kind === "byoa" ? { ...item, kind: "byoa", displayName: row.display_name ?? row.name } : item;
}

export function passportOf(row: PassportRow): Passport {
  return { ...listItem(row), displayName: row.display_name ?? row.name, primarySol: row.primary_sol };
}

/** The passport exactly as it was written (the import format's record). */
export function recordOf(row: PassportRow, { manifest, card }: Partial<DocumentsRow>): PassportRecord {
  return {
    ...listItem(row),
    ...(row.kind === "native" && row.display_name !== null ? { displayName: row.display_name } : {}),
    ...(row.primary_sol !== null ? { primarySol: row.primary_sol } : {}),
    ...(manifest ? { manifest: JSON.parse(manifest) } : {}),
    ...(card ? { card: JSON.parse(card) } : {}),
  };
}

export const manifestOf = (row: DocumentsRow | undefined) =>
  row?.manifest ? (JSON.parse(row.manifest) as Manifest) : undefined;
export const cardOf = (row: DocumentsRow | undefined) =>
  row?.card ? (JSON.parse(row.card) as IdentityCard) : undefined;

type OptionRow = { family_id: string; id: string; name: string; description: string };

/** Families in their order, each with its options in theirs. */
export function catalogOf(families: Omit<SkillFamily, "options">[], options: OptionRow[]): SkillFamily[] {
  return families.map((family) => ({
    id: family.id,
    name: family.name,
    description: family.description,
    options: options
      .filter((o) => o.family_id === family.id)
      .map(({ id, name, description }) => ({ id, name, description })),
  }));
}

export type Holder = { name: string; kind: string };

/**
 * The first unique field of `record` another passport already holds (or, without upsert, its name),
 * as a conflict; asked inside the refused write's transaction, so that earlier records of the batch count.
 */
export function heldBy(
  record: PassportRecord,
  at: string,
  upsert: boolean,
  holderOf: (field: UniqueField, value: string) => Holder | undefined,
): StoreConflict | undefined {
  for (const field of UNIQUE_COLUMNS.values()) {
    const value = record[field];
    const holder = value == null ? undefined : holderOf(field, value);
    if (holder && !(upsert && holder.name === record.name))
      return new StoreConflict(
        `${at}.${field}`,
        `"${value}" is already held by the ${holder.kind} passport "${holder.name}"`,
      );
  }
  return undefined;
}

/** The conflict of a capability the catalog does not hold. */
export const unknownCapability = (at: string, index: number, id: string) =>
  new StoreConflict(`${at}.manifest.capabilities[${index}]`, `"${id}" does not resolve in the skill catalog`);
