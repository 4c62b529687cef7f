/** Representation of entities in responses (ETSI GS CIM 009 v1.8 §4.5.1 normalized, §4.5.3 keyValues, concise). */
export type EntityFormat = "normalized" | "keyValues" | "concise";

/** How an entity is to be shown (the `options`, `format`, `attrs`, `pick`, `omit`, `lang` parameters, §5.7.1). */
export interface RenderOptions {
  format: EntityFormat;
  /** Include createdAt/modifiedAt (`options=sysAttrs`). */
  sysAttrs: boolean;
  /** Only these attributes (`attrs`; compacted names), or undefined for all. */
  attrs?: Set<string>;
  /** Only these members (`pick`; may name id, type and attributes). */
  pick?: Set<string>;
  /** Leave these members out (`omit`). */
  omit?: Set<string>;
  /** Language preferences (`lang`), already parsed; LanguageProperties become Properties. */
  lang?: string[];
}
