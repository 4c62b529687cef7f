/**
 * IRIs of the vocabularies the RDF layer writes and reads (RDF 1.1 Concepts §5, XML Schema 1.1
 * Part 2, ETSI GS CIM 009 §5.2 core context, OGC GeoSPARQL 1.1 §8, W3C WGS84 Basic Geo).
 */

/** RDF 1.1 namespace (RDF 1.1 Concepts §1.7). */
export const RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
/**
 * Namespace of storage-only predicates (compact encodings the broker reads back itself, such as the
 * attribute timestamps literal). They are not part of the data model: SPARQL's plain view leaves them out.
 */
export const CITYGRAPH_STORE_NS = "https://w3id.org/citygraph/store#";
/** rdf:type. */
export const RDF_TYPE = `${RDF}type`;
/** rdf:first, rdf:rest, rdf:nil: the RDF collection vocabulary (JSON-LD 1.1 API §8.4). */
export const RDF_FIRST = `${RDF}first`;
export const RDF_REST = `${RDF}rest`;
export const RDF_NIL = `${RDF}nil`;
/** rdf:JSON, the datatype of JSON literals (JSON-LD 1.1 §10.2). */
export const RDF_JSON = `${RDF}JSON`;
/** rdf:langString, the datatype of language-tagged strings (RDF 1.1 Concepts §3.3). */
export const RDF_LANGSTRING = `${RDF}langString`;

/** XML Schema datatypes namespace. */
export const XSD = "http://www.w3.org/2001/XMLSchema#";
export const XSD_STRING = `${XSD}string`;
export const XSD_INTEGER = `${XSD}integer`;
export const XSD_DOUBLE = `${XSD}double`;
export const XSD_BOOLEAN = `${XSD}boolean`;
export const XSD_DATETIME = `${XSD}dateTime`;

/** NGSI-LD core vocabulary (ETSI GS CIM 009 §5.2.1 and Annex B core context). */
export const NGSI_LD = "https://uri.etsi.org/ngsi-ld/";
export const NGSI_LD_GEOPROPERTY = `${NGSI_LD}GeoProperty`;
export const NGSI_LD_HAS_VALUE = `${NGSI_LD}hasValue`;
export const NGSI_LD_CREATED_AT = `${NGSI_LD}createdAt`;
export const NGSI_LD_MODIFIED_AT = `${NGSI_LD}modifiedAt`;
export const NGSI_LD_DELETED_AT = `${NGSI_LD}deletedAt`;
export const NGSI_LD_SCOPE = `${NGSI_LD}scope`;
export const NGSI_LD_DATASET_ID = `${NGSI_LD}datasetId`;
export const NGSI_LD_LOCATION = `${NGSI_LD}location`;
export const NGSI_LD_DATETIME = `${NGSI_LD}DateTime`;

/** GeoSPARQL (OGC GeoSPARQL 1.1 §8.5.1 geo:asWKT, geo:wktLiteral). */
export const GEOSPARQL = "http://www.opengis.net/ont/geosparql#";
export const GEO_AS_WKT = `${GEOSPARQL}asWKT`;
export const GEO_WKT_LITERAL = `${GEOSPARQL}wktLiteral`;

/** W3C Basic Geo (WGS84 lat/long) vocabulary. */
export const WGS84 = "http://www.w3.org/2003/01/geo/wgs84_pos#";
export const WGS84_LAT = `${WGS84}lat`;
export const WGS84_LONG = `${WGS84}long`;
