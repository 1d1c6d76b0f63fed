// A small HTTP client for driving the API in tests.
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Whether `err` is fetch's failure on a connection the server had reset or closed before reading the request. */
function staleConnection(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string } } | undefined)?.cause;
  return (err as Error | undefined)?.name === "TypeError" && (cause?.code === "ECONNRESET" || cause?.code === "UND_ERR_SOCKET");
}

/**
 * fetch, sent again when it met a kept-alive connection the server had already closed: the server closes an
 * idle connection after its keep-alive timeout (5 s), and a busy test process (an in-process system, a
 * worker on a loaded machine) may write its next request on it before it sees the close. The request never
 * reached the server, so it goes again on another connection, at most as many times as fetch keeps them.
 * Only requests whose body can be sent twice (none, a string, bytes) are sent again. The end-to-end suites
 * install it as their fetch (test/src/setup-fetch.ts).
 */
export function fetchFresh(fetchOnce: typeof fetch): typeof fetch {
  return async (input, init) => {
    const body = init?.body;
    const repeatable = !(input instanceof Request) && (body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array);
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetchOnce(input, init);
      } catch (err) {
        if (!repeatable || attempt >= 4 || !staleConnection(err)) throw err;
      }
    }
  };
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  as(token: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { ...headers } };
    const h = init.headers as Record<string, string>;
    if (this.token !== undefined && !("authorization" in headers)) h.authorization = `Bearer ${this.token}`;
    if (body !== undefined) {
      h["content-type"] = h["content-type"] ?? "application/json";
      init.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    const res = await fetch(this.baseUrl + path, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = any>(path: string) {
    return this.request<T>("GET", path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>("POST", path, body ?? {});
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>("PUT", path, body ?? {});
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>("PATCH", path, body ?? {});
  }
  delete<T = any>(path: string) {
    return this.request<T>("DELETE", path);
  }
}

/** Rate limits count per minute: a sequence that must stay in one window starts well before its end. */
export async function awayFromWindowEdge(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() % 60_000 > 50_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}
