import type http from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import { requestOrigin } from '../http/client-address';
import { addLogFields, type Logger, withLogFields } from '../logger';
import type { Metrics } from '../metrics';
import type { AuthService } from '../services/auth/auth.service';
import type { CampaignService } from '../services/campaigns/campaign.service';
import type { RateLimitService } from '../services/platform/rate-limit.service';
import { campaignJson } from './campaign.serializer';
import { okText } from './envelope';
import { answerFailure } from './middleware';
import { recordRequest, requestIdOf } from './observe';

/** `GET /v1/campaigns/by-id/{id}` with a UUID and no query: the one hot read answered here. */
const BY_ID = /^\/v1\/campaigns\/by-id\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
/** Its route label, as @koa/router names the route that serves it otherwise. */
const BY_ID_ROUTE = '/v1/campaigns/by-id/:id';

export interface HotReadParts {
  orm: MikroORM;
  auth: AuthService;
  rateLimits: RateLimitService;
  campaigns: CampaignService;
  logger: Logger;
  metrics: Metrics;
}

/**
 * Answers the hot reads before the Koa chain, and hands every other request to `fallback`
 * (the Koa app). The CORS, URL, GraphQL, console and metrics middleware each look at a
 * request before a REST route gets it; for `GET /v1/campaigns/by-id/{id}` (docs/performance.md,
 * "by-id fast path") that chain cost more than the read itself. What the chain gives such a
 * request is kept, from the same functions: the request id (`requestIdOf`, echoed, on every
 * log line), authentication and the request rate limit (the route's `endpointKit`), the
 * company's campaign by `CampaignService.show`, the same JSON (`campaignJson`, `okText`),
 * failures by `answerFailure` under the standard policy, the latency histogram and access
 * line (`recordRequest`), and the `Vary: Origin` @koa/cors sets on every answer.
 *
 * Left to the chain: requests with an `Origin` (the CORS headers stay @koa/cors's), any
 * other method, a malformed id, a query string, a trailing slash.
 */
export function answerHotReads(parts: HotReadParts, fallback: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>): http.RequestListener {
  return (req, res) => {
    const id = req.method === 'GET' && req.headers.origin === undefined ? BY_ID.exec(req.url ?? '')?.[1] : undefined;
    // Koa's callback answers its own failures: its promise never rejects.
    if (id === undefined) {
      void fallback(req, res);
      return;
    }
    // As Koa's callback does: a failure past the answer's own (a bug) is logged, never an unhandled rejection.
    answerCampaign(parts, id, req, res).catch((err: unknown) => {
      parts.logger.error({ err, method: req.method, path: req.url }, 'hot read failed');
      res.destroy();
    });
  };
}

async function answerCampaign(parts: HotReadParts, id: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const requestId = requestIdOf(req.headers['x-request-id']);
  const started = performance.now();
  const request = { method: 'GET', route: BY_ID_ROUTE, path: req.url! };
  await withLogFields({ request_id: requestId }, async () => {
    let status = 200;
    let body: string;
    let headers: Record<string, string> = {};
    try {
      const scope = await parts.rateLimits.authenticating(requestOrigin(req), () => parts.auth.authenticate(() => parts.orm.em.fork(), req.headersDistinct.authorization));
      addLogFields({ company_id: scope.companyId, user_id: scope.userId });
      await parts.rateLimits.consume(scope, ['request']);
      body = okText(campaignJson(await parts.campaigns.show(scope, id)));
    } catch (err) {
      const mapped = answerFailure(err, 'standard', parts.logger, request);
      ({ status } = mapped);
      body = JSON.stringify(mapped.body);
      headers = mapped.headers ?? {};
    }
    res.writeHead(status, {
      'X-Request-Id': requestId,
      Vary: 'Origin',
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      ...headers,
    });
    res.end(body);
    recordRequest(parts.logger, parts.metrics, { ...request, status }, started);
  });
}
