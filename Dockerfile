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
ENV PORT=1026 DATA_DIR=/data
EXPOSE 1026
CMD ["node", "dist/src/main.js"]
