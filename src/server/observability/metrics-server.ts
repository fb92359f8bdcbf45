import { createServer, type Server } from 'node:http';
import { withSecurityHeaders } from '../http/responses.ts';
import type { ExplorerMetrics } from './metrics.ts';

// /metrics on a port of its own (METRICS_PORT), for deployments that scrape over a private
// network instead of presenting a token on the public port: anyone who reaches this port gets
// the figures, and nothing else is served on it.

export function createMetricsServer(metrics: ExplorerMetrics): Server {
  return createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, withSecurityHeaders({ 'Content-Type': 'text/plain; charset=utf-8' }));
      response.end('Not Found');
      return;
    }
    metrics.text().then(
      (text) => {
        response.writeHead(
          200,
          withSecurityHeaders({ 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' }),
        );
        response.end(text);
      },
      () => {
        response.writeHead(
          500,
          withSecurityHeaders({ 'Content-Type': 'text/plain; charset=utf-8' }),
        );
        response.end('metrics unavailable');
      },
    );
  });
}
