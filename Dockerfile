# build: Rust for the native store addon (native/store: Oxigraph with RocksDB) and Node for the rest
FROM node:20-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends cargo rustc libclang-dev clang \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# npm ci builds the addon (native/store/build.js) and the project (the prepare script)
ENV CITYGRAPH_CARGO_TARGET_DIR=/tmp/cargo-target
RUN npm ci --no-audit --no-fund && rm -rf /tmp/cargo-target

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app /app
ENV PORT=1026 DATA_DIR=/data HEAP_MB=8192
EXPOSE 1026
# the V8 heap limit as `npm start` sets it (docs/configuration.md HEAP_MB)
CMD ["sh", "-c", "exec node --max-old-space-size=${HEAP_MB} dist/src/main.js"]
