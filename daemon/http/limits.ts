/** How long a client may take and how much of the daemon it may hold; `packdesk daemon` runs with the defaults. */
export interface HttpLimits {
  /** A whole request, headers and body, must arrive within this (an import's upload too, over a LAN). */
  requestTimeoutMs: number;
  /** The request line and headers must arrive within this (and a TLS handshake). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** How often connections are checked against the two timeouts above (Node's `connectionsCheckingInterval`). */
  connectionsCheckingMs: number;
  /** Open connections one remote address may hold; more are closed as soon as they are accepted. */
  maxConnectionsPerAddress: number;
  /** On shutdown, requests in flight get this long; then every connection still open is closed. */
  shutdownGraceMs: number;
  /** Desk sign-ins (`POST /v1/desk/sessions`, `GET /desk/login`) one address may try per minute. */
  signInsPerMinute: number;
  /** Requests with an API key that does not authenticate one address may send per minute; then 429 until the minute ends. */
  failedKeysPerMinute: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 15_000,
  keepAliveTimeoutMs: 10_000,
  connectionsCheckingMs: 1_000,
  maxConnectionsPerAddress: 64,
  shutdownGraceMs: 5_000,
  signInsPerMinute: 20,
  failedKeysPerMinute: 20,
};
