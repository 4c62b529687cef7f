import type { Context } from "koa";
import type { AlertSubscription, AlertSubscriptions } from "../../domain/alerts/alert-subscriptions";
import type { MediaStore } from "../../domain/reports/report-images";
import type { ReviewService } from "../../domain/reports/review-service";
import type { SubmissionService } from "../../domain/reports/submission-service";
import { AppError } from "../../errors";
import type { AlertMessage } from "../../jobs/senders/alert-job";
import { requestOf } from "../http/request-context";

/** What the report, review and alert routes of every face use. */
export interface ReportsApi {
  submission: Pick<SubmissionService, "submit" | "expectedPriority">;
  review: Pick<ReviewService, "queue" | "report" | "decide" | "all">;
  alertSubscriptions: Pick<AlertSubscriptions, "create" | "list" | "delete">;
  activeAlerts(): Promise<AlertMessage[]>;
  media: Pick<MediaStore, "fileOf">;
  vapidPublicKey: string;
}

/** The caller's id for ownership ("anonymous" while no auth gate has set a principal). */
export function callerId(ctx: Context): string {
  return requestOf(ctx).principal?.id ?? "anonymous";
}

/** docs/auth.md roles: reviews are for operators and admins (no principal = authentication off). */
export function requireOperator(ctx: Context): void {
  const p = requestOf(ctx).principal;
  if (p && p.role !== "operator" && p.role !== "admin")
    throw new AppError("AccessDenied", "Reviewing reports needs the operator role");
}

/** Admins see and delete every alert subscription; others their own. */
export function subscriptionScope(ctx: Context): string | undefined {
  const p = requestOf(ctx).principal;
  return p?.role === "admin" ? undefined : callerId(ctx);
}

/** An alert subscription as the REST faces show it to its owner (or an admin), with its channels' targets. */
export function subscriptionBody(s: AlertSubscription): Record<string, unknown> {
  return {
    ...s.targets,
    subscription_id: s.id,
    user_id: s.userId,
    alert_types: s.alertTypes,
    locations: s.locations,
    severity_threshold: s.severityThreshold,
    channels: s.channels,
    status: s.status,
    created_at: s.createdAt ?? null,
  };
}
