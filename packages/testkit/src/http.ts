// A small HTTP client for driving the API in tests.
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Whether `err` is fetch's failure on a connection the server had reset before reading the request. */
function staleConnection(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string } } | undefined)?.cause;
  return (err as Error | undefined)?.name === "TypeError" && (cause?.code === "ECONNRESET" || cause?.code === "UND_ERR_SOCKET");
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
    // Kept-alive connections the server closed while this process's event loop was busy (an in-process
    // system, a test that computed for longer than the server's keep-alive timeout) fail before the request
    // reaches the server: it goes again, on another connection (at most as many times as fetch keeps them).
    let res: Response | undefined;
    for (let attempt = 0; !res; attempt++) {
      res = await fetch(this.baseUrl + path, init).catch((err: unknown) => {
        if (attempt >= 4 || !staleConnection(err)) throw err;
        return undefined;
      });
    }
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
