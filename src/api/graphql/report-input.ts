import { isReportType, type ReportInput } from "../../domain/reports/report-model";
import { badRequest } from "../../errors";
import { decodeBase64Images } from "../http/base64-images";
import type { Principal } from "../http/request-context";

/** `CitizenReportInput` of the SDL (schema.graphql), as GraphQL has validated it. */
export interface CitizenReportArgs {
  category: string;
  location: { lat: number; lon: number };
  description: string;
  images?: readonly string[] | null;
  reporter?: { name?: string | null; phone?: string | null } | null;
}

/**
 * The mutation's input as the domain's {@link ReportInput}: the SDL's enum names become the domain's
 * report types, base64 images their bytes, the caller (unless anonymous) the reporter's principal. The
 * domain's rules (lengths, the point inside the city) are checked by the submission.
 */
export function reportInputOf(args: CitizenReportArgs, principal: Principal | undefined): ReportInput {
  const type = args.category.toLowerCase();
  if (!isReportType(type))
    throw badRequest(`Unknown category ${args.category}`, { parameter: "category", value: args.category });
  const name = args.reporter?.name ?? undefined;
  const phone = args.reporter?.phone ?? undefined;
  return {
    type,
    description: args.description,
    lat: args.location.lat,
    lon: args.location.lon,
    severity: "medium",
    reporter: {
      name,
      phone,
      isAnonymous: !name && !phone,
      ...(principal && principal.kind !== "anonymous" ? { principalId: principal.id } : {}),
    },
    images: decodeBase64Images(args.images ?? []),
    source: "api",
  };
}
