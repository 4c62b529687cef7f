import { GraphQLError } from "graphql";
import type { CameraStatus } from "../../../domain/traffic";
import { AppError } from "../../../errors";
import type { GraphqlContext } from "../graphql-context";
import { reportInputOf, type CitizenReportArgs } from "../report-input";
import type { Resolvers } from "./resolver-map";

/** §4.11 mutations. */
export const mutationResolvers: Resolvers = {
  Mutation: {
    updateCameraStatus: async (_r, a: { id: string; status: string }, ctx: GraphqlContext) => {
      if (!ctx.mayWrite(ctx.principal)) {
        throw new AppError("AccessDenied", "Changing a camera's status needs the operator role");
      }
      return ctx.setCameraStatus(a.id, a.status.toLowerCase() as CameraStatus);
    },
    submitCitizenReport: async (_r, a: { input: CitizenReportArgs }, ctx: GraphqlContext) => {
      if (!ctx.submitReport) {
        throw new GraphQLError(
          "submitCitizenReport is not available: this build has no citizen report service",
          {
            extensions: { code: "NOT_IMPLEMENTED" },
          },
        );
      }
      if (!ctx.mayReport(ctx.principal))
        throw new AppError("AccessDenied", "Submitting a report needs the report permission");
      return ctx.submitReport(reportInputOf(a.input, ctx.principal));
    },
  },
};
