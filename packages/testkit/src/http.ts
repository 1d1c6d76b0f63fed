// A small HTTP client for driving the API in tests.
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
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
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, init);
    } catch (err) {
      // A kept-alive socket the server closed as idle while this process was busy (an embedded system
      // shares the test's event loop: a long synchronous step, such as signing a test IdP's certificate
      // on a loaded machine, outlasts the server's keep-alive timeout): the request never reached a
      // handler, so it is sent once more, on a fresh connection. Any other failure is thrown.
      if ((err as { cause?: { code?: string } }).cause?.code !== "ECONNRESET") throw err;
      res = await fetch(this.baseUrl + path, init);
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
