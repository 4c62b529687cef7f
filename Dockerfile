# build: compilers only here, for the optional native addon native/malloc-trim (node-gyp at npm ci)
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# npm ci builds the project too (the prepare script)
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app /app
ENV PORT=1026 DATA_DIR=/data
EXPOSE 1026
CMD ["node", "dist/src/main.js"]
