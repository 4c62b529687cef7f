import { NGSI_LD_MODIFIED_AT, RDF_TYPE, XSD_DATETIME } from "../../rdf/vocab";
import { ntIri, ntIriOnce, ntLiteral } from "../../rdf/ntriples/write";
import { isoTime } from "../temporal/instance-codec";
import { DCTERMS_IS_VERSION_OF, LDES, TREE, XSD_DURATION } from "./ldes-terms";

/** The IRIs of one tenant's stream as a client reaches them. */
export interface LdesIris {
  stream: string;
  view: string;
  /** Part `part` (0 = the first, the one the view links) of the time page starting at `start`. */
  page(start: number, part?: number): string;
}

const line = (s: string, p: string, o: string): string => `${s} ${ntIri(p)} ${o} .\n`;

/**
 * The event stream (LDES §2): its timestamp path (the member's `ngsi-ld:modifiedAt`), its version-of path
 * (`dcterms:isVersionOf`, the entity) and its view.
 */
export function streamTriples(iris: LdesIris): string {
  const s = ntIri(iris.stream);
  return (
    line(s, RDF_TYPE, ntIri(`${LDES}EventStream`)) +
    line(s, `${LDES}timestampPath`, ntIri(NGSI_LD_MODIFIED_AT)) +
    line(s, `${LDES}versionOfPath`, ntIri(DCTERMS_IS_VERSION_OF)) +
    line(s, `${TREE}view`, ntIri(iris.view))
  );
}

/**
 * The root node of the view (TREE §6): its description (the retention policy, when the history drops
 * raw instances) and, for each page, a `tree:GreaterThanOrEqualToRelation` on its start and a
 * `tree:LessThanRelation` on its end, both on the timestamp path.
 */
export function viewTriples(iris: LdesIris, pages: number[], pageMs: number, retention?: string): string {
  const v = ntIri(iris.view);
  const d = ntIri(`${iris.view}#description`);
  let out = streamTriples(iris) + line(v, RDF_TYPE, ntIri(`${TREE}Node`));
  out += line(v, `${TREE}viewDescription`, d) + line(d, RDF_TYPE, ntIri(`${TREE}ViewDescription`));
  if (retention) {
    out += line(d, `${LDES}retentionPolicy`, "_:retention");
    out += line("_:retention", RDF_TYPE, ntIri(`${LDES}DurationAgoPolicy`));
    out += line("_:retention", `${TREE}value`, ntLiteral(retention, XSD_DURATION));
  }
  pages.forEach((start, n) => {
    out += relation(v, `_:ge${n}`, "GreaterThanOrEqualToRelation", iris.page(start), start);
    out += relation(v, `_:lt${n}`, "LessThanRelation", iris.page(start), start + pageMs);
  });
  return out;
}

function relation(node: string, b: string, kind: string, page: string, at: number): string {
  return (
    line(node, `${TREE}relation`, b) +
    line(b, RDF_TYPE, ntIri(`${TREE}${kind}`)) +
    line(b, `${TREE}node`, ntIri(page)) +
    line(b, `${TREE}path`, ntIri(NGSI_LD_MODIFIED_AT)) +
    line(b, `${TREE}value`, ntLiteral(isoTime(at), XSD_DATETIME))
  );
}

/** Where a part of a time page leads on: the next part, whose members are no older than `after`. */
export interface NextPart {
  after: number;
  end: number;
}

/**
 * The head of a page part: the stream, the part's node, `tree:member` of each member and, when the time
 * page goes on, a `tree:GreaterThanOrEqualToRelation` on this part's last timestamp and a
 * `tree:LessThanRelation` on the page's end, both to the next part. The members' own triples follow it.
 */
export function pageHead(
  iris: LdesIris,
  start: number,
  part: number,
  members: readonly string[],
  next?: NextPart,
): string {
  const s = ntIri(iris.stream);
  const node = ntIri(iris.page(start, part));
  let out = streamTriples(iris) + line(node, RDF_TYPE, ntIri(`${TREE}Node`));
  if (next) {
    out += relation(node, "_:next0", "GreaterThanOrEqualToRelation", iris.page(start, part + 1), next.after);
    out += relation(node, "_:next1", "LessThanRelation", iris.page(start, part + 1), next.end);
  }
  for (const m of members) out += line(s, `${TREE}member`, ntIriOnce(m));
  return out;
}

/** The member's timestamp and its link to the entity it is a version of. */
export function versionLines(member: string, entityId: string, at: number): string {
  const m = ntIriOnce(member);
  return (
    line(m, NGSI_LD_MODIFIED_AT, ntLiteral(isoTime(at), XSD_DATETIME)) +
    line(m, DCTERMS_IS_VERSION_OF, ntIri(entityId))
  );
}
