import { requestJson } from "./http";

/** A citizen report waiting for an operator's decision (docs/reports-and-alerts.md). */
export interface ReviewItem {
  id: string;
  category?: string;
  title?: string | null;
  description?: string;
  severity?: string;
  priority?: string;
  score?: number | null;
  evidence?: Record<string, unknown>;
  images?: string[];
  location?: { lat: number; lon: number; address?: string | null };
  reportedAt?: string;
}

interface ReviewBody {
  report_id: string;
  type?: string;
  title?: string | null;
  description?: string;
  severity?: string;
  priority?: string;
  score?: number | null;
  evidence?: Record<string, unknown>;
  images?: string[];
  location?: { lat: number; lon: number; address?: string | null };
  reported_at?: string;
}

/** `GET /v1/reviews`: the whole queue, high priority first, then the oldest. */
export async function listReviews(): Promise<ReviewItem[]> {
  const body = await requestJson<{ reviews: ReviewBody[] }>("/v1/reviews");
  return body.reviews.map((r) => ({
    id: r.report_id,
    category: r.type,
    title: r.title,
    description: r.description,
    severity: r.severity,
    priority: r.priority,
    score: r.score,
    evidence: r.evidence,
    images: r.images,
    location: r.location,
    reportedAt: r.reported_at,
  }));
}

/** `POST /v1/reviews/{report_id}` with the operator's decision and note. */
export async function decide(id: string, decision: "confirm" | "reject", note: string): Promise<void> {
  await requestJson(`/v1/reviews/${encodeURIComponent(id)}`, { method: "POST", json: { decision, note } });
}
