import { faceRouter } from "./face-router";
import { registerDocsRoutes } from "../../api/rest/docs-routes";
import type { Face } from "./face";

/** The browsable API reference at `/docs`, over the OpenAPI documents of both REST variants. */
export function docsFace(): Face {
  const router = faceRouter();
  registerDocsRoutes(router, [
    { name: "Variant B (/api/v1)", url: "/api/v1/openapi.json" },
    { name: "Variant A (/v1)", url: "/v1/openapi.json" },
  ]);
  return { routers: [router] };
}
