/**
 * `GET /healthz` → 200 `{"status": "ok"}`: liveness only (the process answers); it does not call the marketplace.
 */
import type { RequestHandler } from 'express';

/** The liveness handler. */
export const healthRoute: RequestHandler = function domainkitBffHealthz(_req, res) {
  res.json({ status: 'ok' });
};
