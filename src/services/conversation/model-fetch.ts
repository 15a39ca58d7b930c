import { Readable } from 'node:stream';
import { type Agent, request } from 'undici';

/** Statuses whose response has no body (the Fetch standard's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The `fetch` the OpenAI SDK is given (its documented `fetch` option) for the model host:
 * undici's `request` over `agent`, a keep-alive pool of its own, answered as a WHATWG
 * `Response` whose body streams the socket's bytes as they come. Node's global `fetch` spends
 * about a third more CPU per streamed answer on the same pool (its Request, body and stream
 * machinery): docs/performance.md, "bench:conversations". The SDK sends a URL, a method,
 * headers, a JSON text body and a signal; any other body goes through the global `fetch`.
 */
export function modelFetch(agent: Agent) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const { body, method = 'GET', headers, signal } = init;
    if (input instanceof Request || (body !== undefined && body !== null && typeof body !== 'string')) return fetch(input, init);
    const res = await request(input, {
      method: method as 'GET',
      headers: new Headers(headers),
      body: body ?? undefined,
      signal: signal ?? undefined,
      dispatcher: agent,
    });
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(name, one);
    }
    if (NULL_BODY.has(res.statusCode)) {
      res.body.resume();
      return new Response(null, { status: res.statusCode, headers: answerHeaders });
    }
    return new Response(Readable.toWeb(res.body) as ReadableStream<Uint8Array>, { status: res.statusCode, headers: answerHeaders });
  };
}
