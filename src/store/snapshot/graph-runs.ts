/** Lines of one graph that follow each other in a snapshot file, as a slice of a buffer. */
export interface GraphRun {
  graph: string;
  buf: Buffer;
  start: number;
  end: number;
  lines: number;
}

const NL = 0x0a;

/**
 * The lines of snapshot N-Quads (DESIGN.md "Durability is ours to build"), read chunk by chunk, as
 * runs of consecutive lines of one graph. Every snapshot line ends with ` <graph> .` and snapshot
 * files keep each graph's lines together, so the graph is read from the line's end and decoded only
 * when it changes. A graph that spans two chunks comes as two runs. The slices stay valid after the
 * next step (each chunk is a new buffer).
 */
export function* graphRuns(chunks: Iterable<Uint8Array>, source: string): Generator<GraphRun> {
  let carry = Buffer.alloc(0);
  let name = Buffer.alloc(0); // the current graph name (a copy, valid across chunks)
  let graph = "";
  for (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const buf = carry.length ? Buffer.concat([carry, bytes]) : bytes;
    let runStart = 0;
    let lines = 0;
    let at = 0;
    for (let nl = buf.indexOf(NL, at); nl !== -1; nl = buf.indexOf(NL, at)) {
      const gEnd = nl - 3; // the line ends with "> .\n"
      const gStart = buf.lastIndexOf(" <", gEnd) + 2;
      if (gStart - 2 < at || buf[gEnd] !== 0x3e) {
        throw new Error(`snapshot ${source}: a line without a graph name near byte ${at}`);
      }
      if (buf.compare(name, 0, name.length, gStart, gEnd) !== 0) {
        if (lines > 0) yield { graph, buf, start: runStart, end: at, lines };
        name = Buffer.from(buf.subarray(gStart, gEnd));
        graph = name.toString("utf8");
        runStart = at;
        lines = 0;
      }
      lines++;
      at = nl + 1;
    }
    if (lines > 0) yield { graph, buf, start: runStart, end: at, lines };
    carry = Buffer.from(buf.subarray(at));
  }
  if (carry.length) throw new Error(`snapshot ${source} does not end with a newline`);
}
