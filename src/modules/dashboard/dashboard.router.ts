// Serves the dashboard (web/, built to web/dist by `npm run web:build`) at `/` (contract §0): hashed
// assets are cached for a year, index.html never, and any other GET outside /api/v1 falls back to the
// app so deep links work. Without a build the fallback says how to make one instead of a blank page.
import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';

export const DEFAULT_DASHBOARD_DIR = path.resolve(import.meta.dirname, '../../../web/dist');
const YEAR_SECONDS = 365 * 24 * 3600;

export function dashboardRouter(dir: string = DEFAULT_DASHBOARD_DIR): Router {
  const router = Router();
  const index = path.join(dir, 'index.html');
  router.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: YEAR_SECONDS * 1000, index: false }));
  // A missing asset is a 404, never the app's HTML under a script's name.
  router.use('/assets', (_req, res) => {
    res.status(404).type('text/plain').send('Not found');
  });
  router.use(express.static(dir, { index: false, maxAge: 0 }));
  // Not the API, nor the service's own pages (/metrics must stay a 404 where it is hidden).
  router.get(/^\/(?!(?:api|metrics|docs|sandbox|checkout|healthz|readyz)(?:\/|$))/, (_req, res) => {
    if (!existsSync(index)) {
      res.status(503).type('text/plain').send('The dashboard is not built yet: run `npm run web:build` (npm start does it for you).');
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
