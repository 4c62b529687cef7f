/**
 * The NGSI-LD core @context (ETSI GS CIM 009 v1.8 §4.5 / Annex B). The broker ships v1.8 in
 * `contexts/` and resolves every published core-context URL to it without the network.
 */

/** The canonical URL of the core context this broker implements. */
export const CORE_CONTEXT_URL = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";

const CORE_URL = /^https?:\/\/uri\.etsi\.org\/ngsi-ld\/v1\/ngsi-ld-core-context(-v\d+(\.\d+)*)?\.jsonld$/;

/**
 * True for any published URL of the NGSI-LD core @context (`.../ngsi-ld-core-context.jsonld`,
 * `...-v1.3.jsonld`, ... `-v1.8.jsonld`). All of them denote the core context, which the broker
 * always applies last (§5.5.7), so which version a client names does not matter.
 */
export function isCoreContextUrl(url: string): boolean {
  return CORE_URL.test(url);
}
