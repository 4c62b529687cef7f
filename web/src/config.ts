/** What the service tells the page at load time (src/api/dashboard injects it into index.html). */
export interface ClientConfig {
  /** Leaflet tile URL template; unset = plain background. */
  tilesUrl?: string;
  tilesAttribution?: string;
  /** The faces ask for a token: the login view comes first. */
  authRequired: boolean;
  /** The service's SPARQL prefixes (prefix -> namespace IRI), offered first by the console's completion. */
  sparqlPrefixes: Record<string, string>;
}

/** Reads the `<meta name="citygraph-config">` element of the page. */
export function readClientConfig(doc: Document = document): ClientConfig {
  const raw = doc.querySelector('meta[name="citygraph-config"]')?.getAttribute("content");
  try {
    const parsed = raw ? (JSON.parse(raw) as Partial<ClientConfig>) : {};
    return {
      ...parsed,
      authRequired: parsed.authRequired ?? true,
      sparqlPrefixes: parsed.sparqlPrefixes ?? {},
    };
  } catch {
    return { authRequired: true, sparqlPrefixes: {} };
  }
}
