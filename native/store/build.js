#!/usr/bin/env node
/*
 * Builds the native store addon (docs/decisions/0019-native-store.md): `cargo build --release` of
 * native/store/addon, then copies the library to native/store/citygraph-store.node. Run by `npm ci`
 * (the root package's install script) and by hand after a change to the Rust code.
 *
 * Cargo's target folder is kept outside the clone, in CITYGRAPH_CARGO_TARGET_DIR or
 * ~/.cache/citygraph/cargo-target, so a new clone on the same machine reuses the RocksDB build (about
 * half an hour of two cores the first time). Needs cargo and libclang (Debian: libclang-dev).
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const here = __dirname;
const out = path.join(here, "citygraph-store.node");
const target =
  process.env.CITYGRAPH_CARGO_TARGET_DIR || path.join(os.homedir(), ".cache", "citygraph", "cargo-target");

function fail(message) {
  console.error(`native store: ${message}`);
  process.exit(1);
}

if (spawnSync("cargo", ["--version"], { stdio: "ignore" }).status !== 0) {
  fail(
    "cargo is not installed; install Rust (rustup or Debian's cargo) and run `node native/store/build.js`",
  );
}
console.log(
  `native store: cargo build --release (target ${target}; the first build compiles RocksDB, ~30 min)`,
);
const started = Date.now();
const build = spawnSync("cargo", ["build", "--release", "--locked", "-p", "citygraph-store"], {
  cwd: here,
  stdio: "inherit",
  env: { ...process.env, CARGO_TARGET_DIR: target },
});
if (build.status !== 0)
  fail(`cargo build failed (exit ${build.status}); libclang-dev is needed by RocksDB's bindings`);
const lib = path.join(
  target,
  "release",
  process.platform === "darwin" ? "libcitygraph_store.dylib" : "libcitygraph_store.so",
);
fs.copyFileSync(lib, out + ".tmp");
fs.renameSync(out + ".tmp", out);
console.log(
  `native store: built ${path.relative(process.cwd(), out)} in ${Math.round((Date.now() - started) / 1000)} s`,
);
