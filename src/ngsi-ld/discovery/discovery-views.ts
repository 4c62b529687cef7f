import { randomUUID } from "node:crypto";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { AttributeStats, DiscoveryIndex, TypeStats } from "./discovery-index";

/**
 * The discovery data types (ETSI GS CIM 009 v1.8 §5.2.24 EntityTypeList, §5.2.25 EntityType, §5.2.26
 * EntityTypeInfo, §5.2.27 AttributeList, §5.2.28 Attribute) built from the discovery index, names
 * compacted with the request's @context (`ldc`), ids left as expanded IRIs. Lists are sorted by name.
 */
export class DiscoveryViews {
  constructor(
    private readonly index: DiscoveryIndex,
    private readonly tenant: string,
    private readonly ldc: CompiledContext,
  ) {}

  /** §5.7.5: EntityTypeList. */
  typeList(): object {
    const typeList = this.sortedNames(this.index.types(this.tenant).keys());
    return { id: `urn:ngsi-ld:EntityTypeList:${randomUUID()}`, type: "EntityTypeList", typeList };
  }

  /** §5.7.6: one EntityType per type, with its attribute names. */
  typeDetails(): object[] {
    return this.byName(this.index.types(this.tenant)).map(([iri, s]) => ({
      id: iri,
      type: "EntityType",
      typeName: this.name(iri),
      attributeNames: this.sortedNames(s.attrs.keys()),
    }));
  }

  /** §5.7.7: the EntityTypeInfo of one type (expanded IRI), or undefined when no entity has it. */
  typeInfo(iri: string): object | undefined {
    const s: TypeStats | undefined = this.index.types(this.tenant).get(iri);
    if (s === undefined) return undefined;
    return {
      id: iri,
      type: "EntityTypeInfo",
      typeName: this.name(iri),
      entityCount: s.entities,
      attributeDetails: this.byName(s.attrs).map(([attr, kinds]) => ({
        id: attr,
        type: "Attribute",
        attributeName: this.name(attr),
        attributeTypes: this.sortedNames(kinds.keys()),
      })),
    };
  }

  /** §5.7.8: AttributeList. */
  attributeList(): object {
    const attributeList = this.sortedNames(this.index.attributes(this.tenant).keys());
    return { id: `urn:ngsi-ld:AttributeList:${randomUUID()}`, type: "AttributeList", attributeList };
  }

  /** §5.7.9: one Attribute per attribute, with the types of the entities that have it. */
  attributeDetails(): object[] {
    return this.byName(this.index.attributes(this.tenant)).map(([iri, s]) => ({
      id: iri,
      type: "Attribute",
      attributeName: this.name(iri),
      typeNames: this.sortedNames(s.types.keys()),
    }));
  }

  /** §5.7.10: the Attribute of one attribute (expanded IRI), or undefined when no entity has it. */
  attribute(iri: string): object | undefined {
    const s: AttributeStats | undefined = this.index.attributes(this.tenant).get(iri);
    if (s === undefined) return undefined;
    return {
      id: iri,
      type: "Attribute",
      attributeName: this.name(iri),
      attributeCount: s.instances,
      attributeTypes: this.sortedNames(s.kinds.keys()),
      typeNames: this.sortedNames(s.types.keys()),
    };
  }

  private name(iri: string): string {
    return this.ldc.compactIri(iri);
  }

  private sortedNames(iris: Iterable<string>): string[] {
    return [...iris].map((i) => this.name(i)).sort();
  }

  private byName<V>(m: ReadonlyMap<string, V>): [string, V][] {
    return [...m].sort((a, b) => (this.name(a[0]) < this.name(b[0]) ? -1 : 1));
  }
}
