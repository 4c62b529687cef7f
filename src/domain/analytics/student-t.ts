import { gammaln } from "simple-statistics";

/**
 * Two-sided p-value of a Pearson correlation from Student's t distribution: t = r sqrt(df / (1 - r²)),
 * df = n - 2, p = I_{df/(df+t²)}(df/2, 1/2) (regularized incomplete beta, continued fraction of
 * Numerical Recipes §6.4).
 */
export function correlationPValue(r: number, n: number): number {
  const df = n - 2;
  if (df <= 0 || !Number.isFinite(r)) return 1;
  if (Math.abs(r) >= 1) return 0;
  const t2 = (r * r * df) / (1 - r * r);
  return incompleteBeta(df / (df + t2), df / 2, 0.5);
}

/** Regularized incomplete beta I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(gammaln(a + b) - gammaln(a) - gammaln(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaCf(x, a, b)) / a;
  return 1 - (front * betaCf(1 - x, b, a)) / b;
}

function betaCf(x: number, a: number, b: number): number {
  const tiny = 1e-30;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 3e-14) break;
  }
  return h;
}

/** The significance label of a p-value. */
export function significance(p: number): "high" | "medium" | "low" | "none" {
  if (p < 0.001) return "high";
  if (p < 0.01) return "medium";
  if (p < 0.05) return "low";
  return "none";
}
