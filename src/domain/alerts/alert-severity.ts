/** Alert types (docs/reports-and-alerts.md "Alerts"). */
export const ALERT_TYPES = ["accident", "congestion", "weather"] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** Alert severity and `severity_threshold` use the accident scale (docs/reports-and-alerts.md "Alerts"). */
export const ALERT_SEVERITIES = ["minor", "moderate", "severe", "critical"] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** True when `severity` reaches `threshold`. */
export function reaches(severity: AlertSeverity, threshold: AlertSeverity): boolean {
  return ALERT_SEVERITIES.indexOf(severity) >= ALERT_SEVERITIES.indexOf(threshold);
}
