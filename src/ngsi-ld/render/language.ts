/**
 * Parses a `lang` parameter (ETSI GS CIM 009 v1.8 §4.15: a language tag, a comma-separated list with
 * optional q-weights, or `*`) into tags in order of preference.
 */
export function parseLang(raw: string): string[] {
  return raw
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((x) => x.tag.length > 0)
    .sort((a, b) => b.q - a.q)
    .map((x) => x.tag);
}

/**
 * Picks the string of a language map for the preferences (§4.15): the first preferred tag present,
 * any tag for `*`, then `@none`, then the entry whose tag sorts first. "Any" is made deterministic on
 * purpose: the map is read back from RDF, where its entries have no order, so "the first key" would depend
 * on whether the entity came from the graph cache (written order) or the store (index order).
 * Returns the value and the tag chosen.
 */
export function pickLanguage(
  map: Record<string, unknown> | undefined,
  prefs: string[],
): { value: unknown; lang: string | undefined } {
  // an empty languageMap is read back from the graph as none at all
  if (map === undefined) return { value: undefined, lang: undefined };
  for (const p of prefs) {
    if (p === "*") break;
    if (p in map) return { value: map[p], lang: p };
  }
  if ("@none" in map) return { value: map["@none"], lang: "@none" };
  let first: string | undefined;
  for (const tag of Object.keys(map)) if (first === undefined || tag < first) first = tag;
  return { value: first === undefined ? undefined : map[first], lang: first };
}
