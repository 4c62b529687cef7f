import { OpenApiClient } from "./openapi-client";

/** A client of REST variant B that holds every response to `/api/v1/openapi.json`. */
export class RestBClient extends OpenApiClient {
  constructor(base: string) {
    super(base, "/api/v1");
  }
}
