/**
 * NGSI-LD geo-queries (ETSI GS CIM 009 v1.8 §4.10 Geo-query language, §5.2.13 GeoQuery): the parsed
 * query, its parser, the exact evaluator and the R-tree index that narrows candidates.
 */
export { DEFAULT_GEOPROPERTY, type GeoQuery, type GeoRel, type GeoRelName, type Geometry } from "./geo-query";
export { parseGeoQuery, type GeoQueryParams, type ParseGeoQueryOptions } from "./parse-geo-query";
export { matchesGeoQuery } from "./geo-predicates";
export { geometryDistance } from "./geo-distance";
export { GeoIndex, type GeoIndexImage } from "./geo-index";
