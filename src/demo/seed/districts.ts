import * as fs from "node:fs";
import type { MultiPolygon } from "./ngsi-ld-doc";
import { datasetPath } from "./project-root";
import { fold, nameCore } from "../../domain/traffic/zones/district-names";

/** A district of HCMC (2021 to mid-2025 units) with its OSM polygon. */
export interface DistrictRecord {
  /** URL-safe ASCII slug of the full name, e.g. "quan-1", "thanh-pho-thu-duc"; the entity id suffix. */
  slug: string;
  /** NGSI-LD entity id, urn:ngsi-ld:District:<slug>. */
  entityId: string;
  /** Vietnamese name in usual case, e.g. "Quận Gò Vấp", "Thành phố Thủ Đức", "Huyện Củ Chi". */
  name: string;
  /** Names that refer to the same unit (old districts merged into Thủ Đức in 2021). */
  alternateNames: string[];
  geometry: MultiPolygon;
  /** [minLon, minLat, maxLon, maxLat]. */
  bbox: [number, number, number, number];
}

/** Pre-2021 names of the districts merged into Thành phố Thủ Đức. */
const THU_DUC_OLD_NAMES = ["Quận 2", "Quận 9", "Quận Thủ Đức"];

type Feature = { properties: { name: string }; geometry: { type: string; geometries?: unknown[] } };

/** Reads the 22 districts of dataset/districts/hcm_districts_osm.geojson. */
export function loadDistricts(
  file = datasetPath("districts", "hcm_districts_osm.geojson"),
): DistrictRecord[] {
  const fc = JSON.parse(fs.readFileSync(file, "utf8")) as { features: Feature[] };
  return fc.features.map((f) => {
    const geometry = unwrapMultiPolygon(f.geometry);
    const name = districtDisplayName(f.properties.name);
    const slug = slugify(name);
    return {
      slug,
      entityId: `urn:ngsi-ld:District:${slug}`,
      name,
      alternateNames: slug === "thanh-pho-thu-duc" ? [...THU_DUC_OLD_NAMES] : [],
      geometry,
      bbox: bboxOf(geometry),
    };
  });
}

function unwrapMultiPolygon(g: Feature["geometry"]): MultiPolygon {
  if (g.type === "MultiPolygon") return g as unknown as MultiPolygon;
  const inner = (g.geometries ?? []) as { type: string }[];
  if (g.type === "GeometryCollection" && inner.length === 1 && inner[0].type === "MultiPolygon") {
    return inner[0] as unknown as MultiPolygon;
  }
  throw new Error(`district geometry is not a MultiPolygon: ${g.type}`);
}

function bboxOf(g: MultiPolygon): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const poly of g.coordinates)
    for (const ring of poly)
      for (const [lon, lat] of ring) {
        if (lon < b[0]) b[0] = lon;
        if (lat < b[1]) b[1] = lat;
        if (lon > b[2]) b[2] = lon;
        if (lat > b[3]) b[3] = lat;
      }
  return b;
}

/** "QUẬN GÒ VẤP" -> "Quận Gò Vấp"; "THÀNH PHỐ THỦ ĐỨC" -> "Thành phố Thủ Đức". */
export function districtDisplayName(upper: string): string {
  const words = upper.trim().toLocaleLowerCase("vi").split(/\s+/);
  const titled = words.map((w) => w.charAt(0).toLocaleUpperCase("vi") + w.slice(1)).join(" ");
  return titled.replace(/^Thành Phố /, "Thành phố ");
}

/** ASCII fold + lower case + dashes: "Thành phố Thủ Đức" -> "thanh-pho-thu-duc". */
export function slugify(s: string): string {
  return fold(s)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/**
 * Finds the district a free-text name refers to ("Quận 1", "District 1", "Q.1", "Gò Vấp", "Thu Duc",
 * and the pre-2021 "Quận 2" / "Quận 9", which map to Thành phố Thủ Đức). Undefined if unknown.
 */
export function resolveDistrictName(
  name: string,
  districts: readonly DistrictRecord[],
): DistrictRecord | undefined {
  const key = nameCore(name);
  if (key === "") return undefined;
  for (const d of districts) {
    if (nameCore(d.name) === key || d.alternateNames.some((a) => nameCore(a) === key)) return d;
  }
  return undefined;
}
