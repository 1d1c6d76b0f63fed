// Every suite's fetch (and testkit's ApiClient, which uses it) sends a request again when it met a kept-alive
// connection the server had already closed (testkit's fetchFresh): with suites two at a time on a loaded
// machine, a worker may write on such a connection before it sees the close, and the request never arrives.
import { fetchFresh } from "@docshelf/testkit";

globalThis.fetch = fetchFresh(globalThis.fetch.bind(globalThis));
