import { OpenApiClient } from "./openapi-client";

/** A client of REST variant A that holds every response to `/v1/openapi.json`. */
export class RestAClient extends OpenApiClient {
  constructor(base: string) {
    super(base, "/v1");
  }
}
