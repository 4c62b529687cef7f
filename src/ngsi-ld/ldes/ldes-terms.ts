/** The TREE and LDES vocabularies (w3id.org/tree, w3id.org/ldes) and the terms the LDES view uses. */
export const TREE = "https://w3id.org/tree#";
export const LDES = "https://w3id.org/ldes#";
export const DCTERMS_IS_VERSION_OF = "http://purl.org/dc/terms/isVersionOf";
export const XSD_DURATION = "http://www.w3.org/2001/XMLSchema#duration";
