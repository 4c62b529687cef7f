import { booleanPointInPolygon } from "@turf/turf";
import type { Entity } from "../ngsi-ld/model/entity";
import { geometryDistance } from "../ngsi-ld/query/geo";
import { GraphAccess, pointOf, valueOf } from "./graph-access";

/** A district (traffic zone) as places need it. */
export interface Place {
  entityId: string;
  /** Local id, e.g. "quan-1". */
  id: string;
  /** Vietnamese name, e.g. "Quận 1". */
  name: string;
  /** English form, e.g. "District 1", "Go Vap District", "Thu Duc City". */
  englishName: string;
  geometry: { type: "MultiPolygon" | "Polygon"; coordinates: number[][][][] | number[][][] };
  bbox: [number, number, number, number];
  /** Folded names that refer to it (id, names, English form, alternate names). */
  keys: string[];
}

/** A camera near a point. */
export interface NearCamera {
  entityId: string;
  name: string;
  metres: number;
}

/** ASCII fold, lower case, single spaces: "Quận Thủ Đức" -> "quan thu duc". */
export function foldName(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/đ/g, "d")
    .replace(/Đ/g, "D")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** English form of a district name: "Quận 1" -> "District 1", "Quận Gò Vấp" -> "Go Vap District". */
export function englishDistrictName(vi: string): string {
  const f = vi.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/đ/g, "d").replace(/Đ/g, "D");
  const m = /^(Quan|Huyen|Thanh pho)\s+(.+)$/i.exec(f);
  if (!m) return f;
  const kind = m[1].toLowerCase();
  if (kind === "thanh pho") return `${m[2]} City`;
  return /^\d+$/.test(m[2]) ? `District ${m[2]}` : `${m[2]} District`;
}

/** How long the district list read from the graph is reused, ms. */
const DISTRICTS_TTL_MS = 60_000;

/**
 * The city's places from the graph: the District entities (polygons) and the TrafficCamera entities
 * (named intersections), for the offline address of a point, the cameras near it and district names
 * as people write them (decisions.md "Zones": id or name, any case, with or without diacritics,
 * Vietnamese or English).
 */
export class CityPlaces {
  private districts?: { at: number; list: Place[] };

  constructor(private readonly graph: GraphAccess) {}

  /** Forgets the district list (a District entity changed). */
  invalidate(): void {
    this.districts = undefined;
  }

  /** Every district. */
  async all(): Promise<Place[]> {
    if (this.districts && Date.now() - this.districts.at < DISTRICTS_TTL_MS) return this.districts.list;
    const list = (await this.graph.select({ type: "District" })).map(placeOf).filter((p): p is Place => !!p);
    this.districts = { at: Date.now(), list };
    return list;
  }

  /** The district containing (lon, lat), or undefined. */
  async districtAt(lon: number, lat: number): Promise<Place | undefined> {
    for (const d of await this.all()) {
      const [x0, y0, x1, y1] = d.bbox;
      if (lon < x0 || lon > x1 || lat < y0 || lat > y1) continue;
      if (booleanPointInPolygon([lon, lat], d.geometry as never)) return d;
    }
    return undefined;
  }

  /** The district a name or id refers to, or undefined. */
  async districtNamed(name: string): Promise<Place | undefined> {
    const k = foldName(name);
    return (await this.all()).find((d) => d.keys.includes(k));
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

  /** "near <nearest camera's intersection>, <district>" from the graph alone (no geocoding service). */
  async addressOf(lon: number, lat: number): Promise<string | undefined> {
    const [district, cams] = await Promise.all([this.districtAt(lon, lat), this.camerasNear(lon, lat, 2000)]);
    const parts = [cams[0] ? `near ${cams[0].name}` : undefined, district?.englishName];
    const s = parts.filter(Boolean).join(", ");
    return s || undefined;
  }
}

function placeOf(e: Entity): Place | undefined {
  const g = valueOf(e, "location") as Place["geometry"] | undefined;
  if (!g || (g.type !== "MultiPolygon" && g.type !== "Polygon")) return undefined;
  const name = String(valueOf(e, "name") ?? "");
  const id = e.id.replace(/^urn:ngsi-ld:District:/, "");
  const alt = valueOf(e, "alternateName");
  const englishName = englishDistrictName(name);
  const names = [id, name, englishName, ...(Array.isArray(alt) ? (alt as string[]) : [])];
  if (id === "thanh-pho-thu-duc") names.push("Thu Duc", "Thủ Đức");
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const polys = (g.type === "Polygon" ? [g.coordinates] : g.coordinates) as number[][][][];
  for (const poly of polys)
    for (const ring of poly)
      for (const [x, y] of ring) {
        b[0] = Math.min(b[0], x);
        b[1] = Math.min(b[1], y);
        b[2] = Math.max(b[2], x);
        b[3] = Math.max(b[3], y);
      }
  return { entityId: e.id, id, name, englishName, geometry: g, bbox: b, keys: [...new Set(names.map(foldName))] };
}
