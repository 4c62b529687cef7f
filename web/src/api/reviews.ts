import { requestJson } from "./http";

/** A citizen report waiting for an operator's decision (decisions.md "Citizen reports and their review"). */
export interface ReviewItem {
  id: string;
  category?: string;
  title?: string;
  description?: string;
  severity?: string;
  priority?: string;
  score?: number;
  evidence?: Record<string, unknown>;
  images?: string[];
  location?: { lat: number; lon: number; address?: string };
  submitted_at?: string;
  status?: string;
}

/** A page of the review queue. */
export interface ReviewPage {
  total: number;
  items: ReviewItem[];
}

/** `GET /v1/reviews`: the queue, priority first, then age; one page of it. */
export async function listReviews(limit: number, offset: number): Promise<ReviewPage> {
  const qs = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  const body = await requestJson<Record<string, unknown>>(`/v1/reviews?${qs}`);
  const items = (body.reviews ?? body.items ?? body.data ?? []) as ReviewItem[];
  return { total: typeof body.total === "number" ? body.total : items.length, items };
}

/** `POST /v1/reviews/{report_id}` with the operator's decision and note. */
export async function decide(id: string, decision: "confirm" | "reject", note: string): Promise<void> {
  await requestJson(`/v1/reviews/${encodeURIComponent(id)}`, { method: "POST", json: { decision, note } });
}
