#!/usr/bin/env bash
# What the tests need from the system, installed or started when missing (docs: README "Tests"):
# Debian packages (as root), Redis at 127.0.0.1:6379 and Mosquitto at 127.0.0.1:1883.
# `npm test` and .ci/run both run it; on a machine where it cannot install, it says what is missing.
set -euo pipefail

need_apt=()
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
command -v mosquitto >/dev/null 2>&1 || need_apt+=(mosquitto)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
# the docs' SPARQLWrapper + pandas example is run by test/integration/sparql-pandas.test.ts
/usr/bin/python3 -c "import pandas" >/dev/null 2>&1 || need_apt+=(python3-pandas)
/usr/bin/python3 -c "import SPARQLWrapper" >/dev/null 2>&1 || need_apt+=(python3-sparqlwrapper)
# the dashboard's browser tests drive Debian's Chromium (test/integration/helpers/browser.ts)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
# the metrics test starts a real Prometheus scraping the service (test/integration/metrics-prometheus.test.ts)
command -v prometheus >/dev/null 2>&1 || need_apt+=(prometheus)
# RocksDB's Rust bindings need libclang to build the native store (native/store/build.js)
# (the package itself: libclang1's runtime library alone has no libclang.so for bindgen to load)
dpkg-query -W -f='${Status}' libclang-dev 2>/dev/null | grep -q "ok installed" || need_apt+=(libclang-dev)
command -v cargo >/dev/null 2>&1 || need_apt+=(cargo)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "test-env: missing ${need_apt[*]}; install them (Debian: sudo apt-get install ${need_apt[*]})" >&2
    exit 1
  fi
  echo "test-env: installing ${need_apt[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

# Redis at 127.0.0.1:6379 is part of the test environment (docs/design.md "Parts that are real").
if ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  echo "test-env: starting redis-server"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 50); do (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null && break; sleep 0.1; done
fi
if ! (exec 3<>/dev/tcp/127.0.0.1/1883) 2>/dev/null; then
  echo "test-env: starting mosquitto"
  mosquitto -d -p 1883 || true
fi
