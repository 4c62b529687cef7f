/**
 * An id as one path segment of a URL (RFC 3986 §3.3 `segment`): characters a segment may hold as they are
 * (so `urn:ngsi-ld:T:1` stays readable), every other one percent-encoded as UTF-8, so that a `Location`
 * header is always a valid header value and `/`, `?` or `#` in an id cannot change the path.
 */
export function pathSegment(id: string): string {
  return encodeURIComponent(id).replace(/%(3A|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/g, (m) =>
    decodeURIComponent(m),
  );
}
