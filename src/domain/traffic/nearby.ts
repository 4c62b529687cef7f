import { DEFAULT_TENANT } from "../../store/graph-store";
import type { GeoIndex } from "../../ngsi-ld/query/geo/geo-index";
import { NGSI_LD_LOCATION } from "../../rdf/vocab";
import type { GeoPoint } from "./models";

/** The NGSI-LD geo index the traffic domain asks for places near a point. */
export interface NearbyIndex {
  geo: Pick<GeoIndex, "matches">;
  /** Resolves once the index holds every entity of the graph (its first fill at start-up). */
  ready(): Promise<void>;
}

/** The ids of the city's entities whose `location` lies within `metres` of `centre`. */
export async function nearbyIds(index: NearbyIndex, centre: GeoPoint, metres: number): Promise<Set<string>> {
  await index.ready();
  const ids = index.geo.matches(DEFAULT_TENANT, {
    georel: { name: "near", maxDistance: metres },
    geometry: { type: "Point", coordinates: [centre.lon, centre.lat] },
    geoproperty: "location",
    geopropertyIri: NGSI_LD_LOCATION,
  });
  return new Set(ids);
}
