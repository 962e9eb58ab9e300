# The card service image: API, worker and migrations share it (different commands in docker-compose.yml).
# Debian-based: the Temporal worker's native module needs glibc.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Handlebars templates (emails, share and claim pages, the console) are read at run time from the package root.
COPY --from=build /app/templates ./templates
# The console's own browser scripts and stylesheets (served under /v2/console/assets/) are read from web/ at start.
COPY --from=build /app/web ./web
# The data volume (DATA_DIR=/data in docker-compose.yml: the rewards key file, media) belongs to the service's user.
RUN mkdir -p /data && chown node:node /data
USER node
# 3000: the API; 2525: the bounce listener (node dist/bin/bounces.js, docker-compose.yml's bounces service).
EXPOSE 3000 2525
# The operator command in the image: `docker compose exec api node dist/bin/cardsvc.js …`.
CMD ["node", "dist/bin/api.js"]
