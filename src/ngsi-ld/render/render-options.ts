import type { Projection } from "./projection";

/** Representation of entities in responses (ETSI GS CIM 009 v1.8 §4.5.1 normalized, §4.5.3 keyValues, concise). */
export type EntityFormat = "normalized" | "keyValues" | "concise";

/** How an entity is to be shown (the `options`, `format`, `attrs`, `pick`, `omit`, `lang` parameters, §5.7.1). */
export interface RenderOptions {
  format: EntityFormat;
  /** Include createdAt/modifiedAt (`options=sysAttrs`). */
  sysAttrs: boolean;
  /** Only these attributes (`attrs`; compacted names), or undefined for all. */
  attrs?: Set<string>;
  /** Only these members (`pick`; may name id, type and attributes; nested lists for linked entities). */
  pick?: Projection;
  /** Leave these members out (`omit`; nested lists apply to linked entities only). */
  omit?: Projection;
  /** Language preferences (`lang`), already parsed; LanguageProperties become Properties. */
  lang?: string[];
  /** Only the attribute instances of these datasetIds (`datasetId`; `@none` = the default instance). */
  datasetIds?: Set<string>;
}

/** The render options for entities linked through relationship `name` (their own nested projection). */
export function linkedOptions(opts: RenderOptions, name: string): RenderOptions {
  return {
    ...opts,
    attrs: undefined,
    pick: opts.pick?.nested.get(name),
    omit: opts.omit?.nested.get(name),
  };
}
