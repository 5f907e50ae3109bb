# Node 24 is the current LTS (Node 20 reached its end of life). Multi-stage: the build stage has the
# development tools (TypeScript, tsx, embedded-postgres); the runtime image has only the production
# dependencies and the compiled JavaScript. It needs DATABASE_URL (and JWT_SECRET): see docker-compose.yml.

# Build: compile TypeScript, generate the Prisma client and build the dashboard (web/ → web/dist).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspaces: @concord/contract (npm ci links it and the postinstall builds it: dist/), and the SDK's
# and the CLI's manifests (npm ci needs every workspace it lists; the server needs neither's code).
COPY packages ./packages
COPY sdk/package.json ./sdk/package.json
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts tsconfig.json tsconfig.build.json ./
RUN npm ci --no-audit --no-fund
COPY src ./src
COPY web ./web
COPY sdk/src/generated ./sdk/src/generated
RUN npm run build && npm run web:build && npm prune --omit=dev --no-audit --no-fund

# Run: compiled JavaScript, production dependencies, migrations applied at start-up.
FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/contract/package.json ./packages/contract/package.json
COPY --from=build /app/packages/contract/dist ./packages/contract/dist
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY package.json prisma.config.ts ./
COPY prisma ./prisma
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/server.js"]
