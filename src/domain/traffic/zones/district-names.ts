import type { Zone } from "../models";

/** ASCII fold, lower case: "Thành phố Thủ Đức" -> "thanh pho thu duc". */
export function fold(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[đĐ]/g, "d")
    .toLowerCase();
}

const PREFIX = /^(quan|q|huyen|h|thanh pho|tp|district|dist|city|town)\b\.?\s*/;
const SUFFIX = /\s*\b(district|city|town)$/;

/** The distinctive core of a district name: "Quận 1", "District 1", "Q.1" -> "1"; "Thu Duc City" -> "thu duc". */
export function nameCore(name: string): string {
  const s = fold(name)
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
  return s.replace(PREFIX, "").replace(SUFFIX, "").trim();
}

/**
 * Resolves a district as users name it (docs/rest.md "Conventions"): its zone id ("quan-1"), or its name,
 * case- and diacritics-insensitive, Vietnamese or English ("Quận 1", "quan 1", "District 1",
 * "Thủ Đức", "Thu Duc City", and the pre-2021 names kept as alternate names). Undefined if unknown.
 */
export function matchZone(name: string, zones: readonly Zone[]): Zone | undefined {
  const raw = fold(name).trim();
  if (raw === "") return undefined;
  const byId = zones.find((z) => z.id === raw || z.entityId === name);
  if (byId) return byId;
  const key = nameCore(name);
  if (key === "") return undefined;
  return zones.find((z) => nameCore(z.name) === key || z.alternateNames.some((a) => nameCore(a) === key));
}
