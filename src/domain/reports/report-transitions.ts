import { AppError } from "../../errors";
import type { ReportStatus, VerificationStatus } from "./report-model";

/** What can change a report's state (docs/reports-and-alerts.md "Review"). */
export type ReportTrigger = "verify" | "confirm" | "reject" | "resolve";

/** One row of the transitions table. */
interface Transition {
  from: ReportStatus;
  /** Only while the verification status is this. */
  verification: VerificationStatus;
  trigger: ReportTrigger;
  to: ReportStatus;
  toVerification: VerificationStatus;
}

/**
 * The transitions table of a report: verification and review act on a pending report only; a
 * verified report can be resolved. Everything else is a 409 CONFLICT: a report is decided once.
 * (Verification that stays under 0.85 keeps the report `pending`; that is no transition.)
 */
export const REPORT_TRANSITIONS: readonly Transition[] = [
  {
    from: "pending",
    verification: "pending",
    trigger: "verify",
    to: "verified",
    toVerification: "confirmed",
  },
  {
    from: "pending",
    verification: "pending",
    trigger: "confirm",
    to: "verified",
    toVerification: "confirmed",
  },
  { from: "pending", verification: "pending", trigger: "reject", to: "rejected", toVerification: "rejected" },
  {
    from: "verified",
    verification: "confirmed",
    trigger: "resolve",
    to: "resolved",
    toVerification: "confirmed",
  },
];

/** The next state, or 409 CONFLICT naming the current one. */
export function transition(
  status: ReportStatus,
  verification: VerificationStatus,
  trigger: ReportTrigger,
): { status: ReportStatus; verificationStatus: VerificationStatus } {
  const t = REPORT_TRANSITIONS.find(
    (x) => x.from === status && x.verification === verification && x.trigger === trigger,
  );
  if (!t)
    throw new AppError(
      "Conflict",
      `A report that is ${status} (verification ${verification}) cannot be ${trigger}ed`,
      {
        status,
        verification_status: verification,
        action: trigger,
      },
    );
  return { status: t.to, verificationStatus: t.toVerification };
}
