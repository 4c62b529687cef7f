#!/usr/bin/env node
// Builds the project only when a source file is newer than the last build, so `npm start` on an
// unchanged tree starts at once (a full `tsc` takes 8-15 s on two cores).
const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");

const root = path.resolve(__dirname, "..");
const stamp = path.join(root, "dist", ".build-stamp");
const watched = ["src", "web", "contexts", "tsconfig.json", "package.json"];

function newest(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of fs.readdirSync(p))
    if (e !== "node_modules" && e !== "dist") m = Math.max(m, newest(path.join(p, e)));
  return m;
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const changed = Math.max(...watched.map((w) => newest(path.join(root, w))));
if (changed > built) {
  process.stderr.write("citygraph: sources changed since the last build, building...\n");
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
}
