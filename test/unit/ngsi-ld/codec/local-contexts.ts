import * as fs from "fs";
import * as path from "path";

/**
 * Local JSON-LD contexts for tests: a jsonld.js documentLoader that serves contexts/ by the URL map
 * of contexts/index.json and refuses everything else (tests never hit the network).
 */
const ROOT = path.resolve(__dirname, "../../../../../contexts");
const INDEX = JSON.parse(fs.readFileSync(path.join(ROOT, "index.json"), "utf8")) as {
  contexts: Record<string, string>;
};

export const CORE_URL = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";
export const ETSI_URL =
  "https://forge.etsi.org/rep/cim/ngsi-ld-test-suite/-/raw/develop/resources/jsonld-contexts/ngsi-ld-test-suite.jsonld";

/** The local file of a context URL, or undefined. */
export function localFileOf(url: string): string | undefined {
  for (const [pattern, file] of Object.entries(INDEX.contexts)) {
    const hit = pattern.endsWith("*") ? url.startsWith(pattern.slice(0, -1)) : url === pattern;
    if (
      hit ||
      (pattern.includes("*") && url.startsWith(pattern.split("*")[0]) && url.endsWith(pattern.split("*")[1]))
    ) {
      return path.join(ROOT, file);
    }
  }
  return undefined;
}

/** The parsed context document of a URL (throws for an unknown URL). */
export function loadContext(url: string): object {
  const file = localFileOf(url);
  if (file === undefined) throw new Error(`no local context for ${url}`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as object;
}

const cache = new Map<string, object>();

/** jsonld.js documentLoader over the local files. */
export async function documentLoader(
  url: string,
): Promise<{ contextUrl: null; document: object; documentUrl: string }> {
  let document = cache.get(url);
  if (document === undefined) cache.set(url, (document = loadContext(url)));
  return { contextUrl: null, document, documentUrl: url };
}
