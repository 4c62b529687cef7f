/** The NGSI-LD entity codec (fast JSON-LD path): see entity-codec.ts (ETSI GS CIM 009 §5.5.7). */
export { entityToTriples, triplesToEntity, type ToTriplesOptions } from "./entity-codec";
export { shortcutTriples } from "./shortcuts";
export type * from "./types";
