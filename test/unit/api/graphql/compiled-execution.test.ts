import { expect } from "chai";
import { execute, parse, type ExecutionResult, type GraphQLError } from "graphql";
import { BatchLoader } from "../../../../src/api/graphql/batch-loader";
import { buildGraphqlSchema } from "../../../../src/api/graphql/build-schema";
import { CompiledExecution } from "../../../../src/api/graphql/compiled-execution";
import type { GraphqlContext } from "../../../../src/api/graphql/graphql-context";
import { formatGraphqlError } from "../../../../src/api/graphql/graphql-errors";
import type { Accident, Camera, CameraView, TrafficDomain } from "../../../../src/domain/traffic";
import { AppError } from "../../../../src/errors";

const T0 = Date.parse("2026-01-31T08:15:00Z");

function camera(i: number): CameraView {
  const c: Camera = {
    entityId: `urn:ngsi-ld:TrafficCamera:${i}`,
    id: String(i),
    name: `Camera ${i}`,
    location: { lat: 10.7 + i / 1000, lon: 106.6 + i / 1000 },
    storedStatus: "active",
    lastUpdate: T0 + i * 1000,
    capabilities: i % 2 ? ["video", "ptz"] : [],
    streamUrl: i % 3 ? `rtsp://cam/${i}` : undefined,
    zoneId: i % 4 ? "quan-1" : undefined,
  };
  return { camera: c, status: i % 5 ? "active" : "error", lastUpdate: c.lastUpdate };
}

const cameras = Array.from({ length: 12 }, (_, i) => camera(i));
const accidents: Accident[] = [0, 1, 2].map((i) => ({
  entityId: `urn:ngsi-ld:TrafficAccident:a${i}`,
  id: `a${i}`,
  timestamp: T0 - i * 60_000,
  location: { lat: 10.77, lon: 106.7 },
  severity: i ? "minor" : "severe",
  status: "active",
  vehiclesInvolved: 2,
  injuries: i,
  fatalities: 0,
  confidence: 1,
  detectionMethod: "camera",
  cameraId: i === 2 ? undefined : String(i + 3),
  images: [],
  zoneId: "quan-1",
}));

/** The resolvers' context over a small fixed city (no store): the same object for both executors. */
function context(): GraphqlContext {
  const byId = new Map(cameras.map((c) => [c.camera.id, c]));
  const domain = {
    projection: { zones: new Map([["quan-1", { id: "quan-1", name: "Quận 1" }]]) },
    zones: { resolve: (id: string) => ({ id }) },
    cameras: {
      list: (f: { status?: string }, limit: number, offset: number) => {
        const all = cameras.filter((c) => !f.status || c.status === f.status);
        return { items: all.slice(offset, offset + limit), total: all.length };
      },
      get: (id: string) => {
        if (id === "boom") throw new Error("secret internals");
        if (id === "gone") throw new AppError("ResourceNotFound", "No camera gone");
        if (id === "nameless") return { ...cameras[1], camera: { ...cameras[1].camera, name: null } };
        if (id === "odd") return { ...cameras[1], status: "odd" };
        if (id === "undated") return { ...cameras[1], lastUpdate: "never" };
        return byId.get(id) ?? null;
      },
    },
    accidents: {
      list: (_f: unknown, limit: number, offset: number) => ({
        items: accidents.slice(offset, offset + limit),
        total: accidents.length,
      }),
      get: (id: string) => accidents.find((a) => a.id === id) ?? null,
    },
  } as unknown as TrafficDomain;
  return {
    domain,
    setCameraStatus: () => Promise.reject(new Error("not called")),
    mayWrite: () => false,
    mayReport: () => false,
    bus: undefined as never,
    queueMessages: 1,
    cameras: new BatchLoader((ids) => ids.map((id) => byId.get(id) ?? null)),
    statistics: (id) => ({ uptime24h: Number(id) * 1.5, detectionsToday: 7, avgVehicleCount: 3 }),
  };
}

const schema = buildGraphqlSchema();
/** Compiles on the first run, so that every run below is a compiled one. */
const compiled = new CompiledExecution(schema, 1);

/** A result as the client reads it: errors through the face's formatter, JSON text (key order too). */
function wire(r: ExecutionResult): string {
  const errors = r.errors?.map((e: GraphQLError) => formatGraphqlError(e, "req-1").toJSON());
  return JSON.stringify({ ...r, ...(errors ? { errors } : {}) });
}

async function both(query: string, variables?: Record<string, unknown>): Promise<[string, string]> {
  const document = parse(query);
  const args = { schema, document, variableValues: variables };
  const reference = await execute({ ...args, contextValue: context() });
  const jit = await compiled.execute({ ...args, contextValue: context() });
  return [wire(jit), wire(reference)];
}

describe("CompiledExecution", () => {
  it("answers a nested page of cameras exactly as graphql-js does", async () => {
    const [jit, reference] = await both(`{ cameras(limit: 10, offset: 1) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { id name status lastUpdate capabilities streamUrl zoneId
        location { lat lon address } statistics { uptime24h detectionsToday avgVehicleCount } } } } }`);
    expect(JSON.parse(jit).data.cameras.edges).to.have.length(10);
    expect(jit).to.equal(reference);
  });

  it("matches with fragments, aliases, variables, directives and batched nested reads", async () => {
    const query = `query($n: Int, $s: CameraStatus, $skip: Boolean!) {
      page: cameras(status: $s, limit: $n) { totalCount edges { node { ...C } } }
      other: cameras(limit: 2) { edges { node { id statistics @skip(if: $skip) { uptime24h } } } }
      accidents(limit: 5) { edges { node { id timestamp severity status camera { ...C } } } }
      one: camera(id: "4") { ... on Camera { name location { address } } }
      none: camera(id: "missing") { id } }
    fragment C on Camera { id name status location { lat lon } statistics { detectionsToday } }`;
    for (const vars of [{ n: 3, s: "ACTIVE", skip: true }, { skip: false }]) {
      const [jit, reference] = await both(query, vars);
      expect(JSON.parse(jit).data.accidents.edges[0].node.camera.id).to.equal("3");
      expect(jit).to.equal(reference);
    }
  });

  it("reports resolver and variable errors with the same path, data and extensions.code", async () => {
    const cases: [string, Record<string, unknown> | undefined, string][] = [
      [`{ cameras(limit: 0) { totalCount } }`, undefined, "INVALID_PARAMETER"],
      [`{ a: camera(id: "gone") { id } b: camera(id: "1") { id } }`, undefined, "NOT_FOUND"],
      [`{ camera(id: "boom") { id } }`, undefined, "INTERNAL_ERROR"],
      [
        `{ camera(id: "nameless") { id name } cameras(limit: 1) { totalCount } }`,
        undefined,
        "INTERNAL_ERROR",
      ],
      [`{ camera(id: "odd") { id status } }`, undefined, "INVALID_REQUEST"],
      [`{ camera(id: "undated") { id lastUpdate } }`, undefined, "INVALID_REQUEST"],
      [`mutation { updateCameraStatus(id: "1", status: ACTIVE) { id } }`, undefined, "FORBIDDEN"],
      [
        `mutation { submitCitizenReport(input: {category: OTHER, location: {lat: 1, lon: 2}, description: "x"}) { id } }`,
        undefined,
        "NOT_IMPLEMENTED",
      ],
      [
        `query($d: DateTime) { accidents(startDate: $d) { totalCount } }`,
        { d: "yesterday" },
        "INVALID_PARAMETER",
      ],
      [`query($n: Int!) { cameras(limit: $n) { totalCount } }`, {}, "INVALID_REQUEST"],
    ];
    for (const [query, vars, code] of cases) {
      const [jit, reference] = await both(query, vars);
      const errors = (JSON.parse(jit) as { errors: { extensions: { code: string } }[] }).errors;
      expect(errors[0].extensions.code, query).to.equal(code);
      expect(jit, query).to.equal(reference);
    }
  });

  it("hides an unexpected error's message and shows the request id", async () => {
    const [jit] = await both(`{ camera(id: "boom") { id } }`);
    expect(jit).not.to.include("secret");
    expect(JSON.parse(jit).errors[0].extensions).to.deep.equal({
      code: "INTERNAL_ERROR",
      request_id: "req-1",
    });
  });

  it("compiles an operation on its second run, once", () => {
    const late = new CompiledExecution(schema);
    const doc = parse(`query A { camera(id: "1") { id } } query B { camera(id: "2") { id } }`);
    expect(late.compiled(doc, "A")).to.equal(undefined);
    const a = late.compiled(doc, "A");
    expect(a).to.have.property("query");
    expect(late.compiled(doc, "A")).to.equal(a);
    expect(late.compiled(doc, "B")).to.equal(undefined);
    expect(late.compiled(doc, "B")).not.to.equal(a);
  });
});
