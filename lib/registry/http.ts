/**
 * One HTTP exchange with a registry over node:http / node:https. The body is read under a byte cap while it
 * streams, so neither a chunked body (no Content-Length) nor a lying Content-Length makes the resolver hold more
 * than the cap; one AbortSignal covers the whole exchange, headers and body, so a server that drips bytes is cut
 * off like one that never answers. Redirects are returned, not followed: transport.ts decides what a redirect may
 * carry. Keep-alive sockets are reused across requests and do not keep the process alive.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';

export interface HttpResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

export interface HttpClientOptions {
  /** Sockets per host. */
  readonly maxSockets: number;
  /** Certificates (PEM) trusted besides Node.js's own. @default - Node.js's (and NODE_EXTRA_CA_CERTS) */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /** Host name resolution. @default - the system's (dns.lookup) */
  readonly lookup?: LookupFunction;
}

export interface HttpRequest {
  readonly method: 'GET' | 'HEAD' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal: AbortSignal;
  /** The most body bytes taken; more is BodyTooLarge. */
  readonly maxBytes: number;
}

/** A body over the cap: announced by Content-Length, or counted as it streamed. */
export class BodyTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly announced: number | undefined,
  ) {
    super(announced !== undefined ? `announced ${announced} bytes` : `sent more than ${limit} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/** The exchange was aborted by its signal (a timeout or the resolution's deadline: the caller knows which). */
export class RequestAborted extends Error {
  constructor() {
    super('aborted');
    this.name = 'RequestAborted';
  }
}

function toHeaders(message: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value Headers refuses (control characters): not one the resolver reads.
    }
  }
  return headers;
}

export class HttpClient {
  private readonly http: HttpAgent;
  private readonly https: HttpsAgent;

  constructor(options: HttpClientOptions) {
    const common = {
      keepAlive: true,
      maxSockets: options.maxSockets,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    };
    this.http = new HttpAgent(common);
    // A `ca` option replaces Node.js's trusted roots; the resolver's adds to them.
    const ca = options.ca === undefined ? undefined : [...rootCertificates, ...[options.ca].flat()];
    this.https = new HttpsAgent({ ...common, ...(ca ? { ca: ca as (string | Buffer)[] } : {}) });
  }

  send(url: URL, init: HttpRequest): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (error: Error | undefined, response?: HttpResponse) => {
        if (settled) return;
        settled = true;
        init.signal.removeEventListener('abort', onAbort);
        if (error) {
          request.destroy();
          reject(error);
        } else resolve(response!);
      };
      const onAbort = () => finish(new RequestAborted());
      const secure = url.protocol === 'https:';
      const request = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: init.method,
          headers: {
            ...init.headers,
            ...(init.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(init.body)) } : {}),
          },
          agent: secure ? this.https : this.http,
        },
        (response) => {
          const announcedText = response.headers['content-length'];
          const announced = announcedText !== undefined ? Number(announcedText) : undefined;
          if (announced !== undefined && announced > init.maxBytes) {
            response.destroy();
            return finish(new BodyTooLarge(init.maxBytes, announced));
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > init.maxBytes) {
              response.destroy();
              finish(new BodyTooLarge(init.maxBytes, undefined));
            } else chunks.push(chunk);
          });
          response.on('end', () =>
            finish(undefined, {
              status: response.statusCode ?? 0,
              headers: toHeaders(response),
              body: Buffer.concat(chunks),
            }),
          );
          response.on('error', (error) => finish(error));
          response.on('close', () => {
            if (!response.complete) finish(new Error('the connection closed before the body ended'));
          });
        },
      );
      request.on('error', (error) => finish(error));
      if (init.signal.aborted) return finish(new RequestAborted());
      init.signal.addEventListener('abort', onAbort, { once: true });
      request.end(init.body);
    });
  }

  /** Closes idle sockets. */
  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
