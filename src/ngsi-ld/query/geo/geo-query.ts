/**
 * The NGSI-LD geo-query (ETSI GS CIM 009 v1.8 §4.10 "NGSI-LD Geo-query language", §5.2.13 GeoQuery):
 * a geospatial relationship (`georel`) between the GeoProperty `geoproperty` of an entity (the target
 * geometry) and a reference geometry given by `geometry` + `coordinates`.
 */

/** One position `[longitude, latitude]` (optionally altitude), IETF RFC 7946 §3.1.1. */
export type Position = number[];

/** The geometry types a geo-query may use as reference (ETSI GS CIM 009 v1.8 §4.10). */
export type GeometryType =
  "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";

/** A GeoJSON geometry (IETF RFC 7946 §3.1) of one of the {@link GeometryType}s. */
export type Geometry =
  | { type: "Point"; coordinates: Position }
  | { type: "MultiPoint"; coordinates: Position[] }
  | { type: "LineString"; coordinates: Position[] }
  | { type: "MultiLineString"; coordinates: Position[][] }
  | { type: "Polygon"; coordinates: Position[][] }
  | { type: "MultiPolygon"; coordinates: Position[][][] };

/** The geospatial relationships of ETSI GS CIM 009 v1.8 §4.10 (`georel`). */
export type GeoRelName = "near" | "within" | "contains" | "intersects" | "disjoint" | "equals" | "overlaps";

/**
 * The parsed `georel` (§4.10): `near` carries its distance bounds in metres (at least one of them);
 * the others are plain topological relationships.
 */
export type GeoRel =
  { name: "near"; maxDistance?: number; minDistance?: number } | { name: Exclude<GeoRelName, "near"> };

/** A parsed, validated geo-query (ETSI GS CIM 009 v1.8 §4.10, §5.2.13). */
export interface GeoQuery {
  georel: GeoRel;
  /** The reference geometry. */
  geometry: Geometry;
  /**
   * The target GeoProperty as the request's @context compacts it (the key of the attribute in an
   * entity compacted with that context); `location` by default (§4.10).
   */
  geoproperty: string;
  /** The same GeoProperty as an expanded IRI (the key of the geo index). */
  geopropertyIri: string;
}

/** The default target GeoProperty of a geo-query (ETSI GS CIM 009 v1.8 §4.10). */
export const DEFAULT_GEOPROPERTY = "location";
