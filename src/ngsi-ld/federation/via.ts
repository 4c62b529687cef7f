/**
 * The `Via` header of distributed operations (ETSI GS CIM 009 v1.8 §6.3.18, IETF RFC 9110 §7.6.3): each
 * broker a request passes through appends `1.1 <its id>`; a broker that finds its own id in the `Via`
 * of a request is in a loop and answers 508 LoopDetected.
 */

/** The Via header to send onward: the incoming one with this broker appended. */
export function viaOnward(incoming: string | undefined, brokerId: string): string {
  const own = `1.1 ${brokerId}`;
  return incoming ? `${incoming}, ${own}` : own;
}

/** True if the incoming Via names this broker (a loop). */
export function viaNames(incoming: string | undefined, brokerId: string): boolean {
  if (!incoming) return false;
  return incoming.split(",").some((hop) => hop.trim().split(/\s+/)[1] === brokerId);
}
