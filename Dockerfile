FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
ENV PORT=1026 DATA_DIR=/data
EXPOSE 1026
CMD ["node", "dist/src/main.js"]
