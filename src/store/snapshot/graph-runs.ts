/** Lines of one graph that follow each other in a snapshot file, as a slice of a buffer. */
export interface GraphRun {
  graph: string;
  buf: Buffer;
  start: number;
  end: number;
  lines: number;
  /** True on the last run of the bytes read at once. */
  chunkEnd?: boolean;
}

const NL = 0x0a;

/** The graph of the lines being read: its name's bytes (a copy, valid across chunks) and its IRI. */
interface Current {
  name: Buffer;
  graph: string;
}

/**
 * The runs of the whole lines of `buf` (which must end at a line's end or hold the partial last line
 * after it); returns the offset after the last newline. The last run yielded has `chunkEnd` set.
 */
function* runsIn(buf: Buffer, cur: Current, source: string): Generator<GraphRun, number> {
  let runStart = 0;
  let lines = 0;
  let at = 0;
  for (let nl = buf.indexOf(NL, at); nl !== -1; nl = buf.indexOf(NL, at)) {
    const gEnd = nl - 3; // the line ends with "> .\n"
    const gStart = buf.lastIndexOf(" <", gEnd) + 2;
    if (gStart - 2 < at || buf[gEnd] !== 0x3e) {
      throw new Error(`snapshot ${source}: a line without a graph name near byte ${at}`);
    }
    if (buf.compare(cur.name, 0, cur.name.length, gStart, gEnd) !== 0) {
      if (lines > 0) yield { graph: cur.graph, buf, start: runStart, end: at, lines };
      cur.name = Buffer.from(buf.subarray(gStart, gEnd));
      cur.graph = cur.name.toString("utf8");
      runStart = at;
      lines = 0;
    }
    lines++;
    at = nl + 1;
  }
  if (lines > 0) yield { graph: cur.graph, buf, start: runStart, end: at, lines, chunkEnd: true };
  return at;
}

/**
 * The lines of snapshot N-Quads (docs/design.md "Durability is ours to build"), read chunk by chunk, as
 * runs of consecutive lines of one graph. Every snapshot line ends with ` <graph> .` and snapshot
 * files keep each graph's lines together, so the graph is read from the line's end and decoded only
 * when it changes. A graph that spans two chunks comes as two runs. The slices stay valid after the
 * next step (each chunk is a new buffer).
 */
export function* graphRuns(chunks: Iterable<Uint8Array>, source: string): Generator<GraphRun> {
  let carry = Buffer.alloc(0);
  const cur: Current = { name: Buffer.alloc(0), graph: "" };
  for (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const buf = carry.length ? Buffer.concat([carry, bytes]) : bytes;
    const at = yield* runsIn(buf, cur, source);
    carry = Buffer.from(buf.subarray(at));
  }
  if (carry.length) throw new Error(`snapshot ${source} does not end with a newline`);
}
