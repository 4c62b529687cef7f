import { geometryDistance } from "../ngsi-ld/query/geo";
import { GraphAccess, pointOf, valueOf } from "./graph-access";
import { matchZone, type Zone } from "./traffic";
import { locateZone } from "./traffic/projection/zone-locator";

/** A district (traffic zone) as places need it. */
export interface Place {
  entityId: string;
  /** Local id, e.g. "quan-1". */
  id: string;
  /** Vietnamese name, e.g. "Quận 1". */
  name: string;
  /** English form, e.g. "District 1", "Go Vap District", "Thu Duc City". */
  englishName: string;
}

/** A camera near a point. */
export interface NearCamera {
  entityId: string;
  name: string;
  metres: number;
}

/** English form of a district name: "Quận 1" -> "District 1", "Quận Gò Vấp" -> "Go Vap District". */
export function englishDistrictName(vi: string): string {
  const f = vi
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/đ/g, "d")
    .replace(/Đ/g, "D");
  const m = /^(Quan|Huyen|Thanh pho)\s+(.+)$/i.exec(f);
  if (!m) return f;
  const kind = m[1].toLowerCase();
  if (kind === "thanh pho") return `${m[2]} City`;
  return /^\d+$/.test(m[2]) ? `District ${m[2]}` : `${m[2]} District`;
}

/**
 * The city's places: the districts (the traffic domain's zones, polygons from the graph) and the
 * TrafficCamera entities (named intersections, through the geo index), for the offline address of a
 * point, the cameras near it and district names as people write them (docs/rest.md "Conventions").
 */
export class CityPlaces {
  constructor(
    private readonly graph: GraphAccess,
    /** The zones of the traffic domain, current with the graph. */
    private readonly zones: () => Zone[],
  ) {}

  /** Every district. */
  all(): Promise<Place[]> {
    return Promise.resolve(this.zones().map(placeOf));
  }

  /** The district containing (lon, lat), or undefined. */
  districtAt(lon: number, lat: number): Promise<Place | undefined> {
    const z = locateZone(this.zones(), { lon, lat });
    return Promise.resolve(z ? placeOf(z) : undefined);
  }

  /** The district a name or id refers to (id or name, any case, with or without diacritics), or undefined. */
  districtNamed(name: string): Promise<Place | undefined> {
    const z = matchZone(name, this.zones());
    return Promise.resolve(z ? placeOf(z) : undefined);
  }

  /** Cameras within `metres` of (lon, lat), nearest first. */
  async camerasNear(lon: number, lat: number, metres: number): Promise<NearCamera[]> {
    const here = { type: "Point" as const, coordinates: [lon, lat] };
    const cams = await this.graph.select({ type: "TrafficCamera", near: { lon, lat, metres } });
    return cams
      .map((c) => {
        const p = pointOf(c);
        return {
          entityId: c.id,
          name: String(valueOf(c, "name") ?? c.id),
          metres: p ? geometryDistance(here, { type: "Point", coordinates: [p.lon, p.lat] }) : Infinity,
        };
      })
      .filter((c) => c.metres <= metres)
      .sort((a, b) => a.metres - b.metres);
  }

  /**
   * "near <nearest camera's intersection>, <district>" from the graph alone (no geocoding service);
   * `near` are the cameras already found within 500 m, if the caller has them.
   */
  async addressOf(lon: number, lat: number, near?: NearCamera[]): Promise<string | undefined> {
    let cams = near?.length ? near : await this.camerasNear(lon, lat, 500);
    if (cams.length === 0) cams = await this.camerasNear(lon, lat, 2000);
    const district = await this.districtAt(lon, lat);
    const parts = [cams[0] ? `near ${cams[0].name}` : undefined, district?.englishName];
    const s = parts.filter(Boolean).join(", ");
    return s || undefined;
  }
}

function placeOf(z: Zone): Place {
  return { entityId: z.entityId, id: z.id, name: z.name, englishName: englishDistrictName(z.name) };
}
