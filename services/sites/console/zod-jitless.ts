// Imported first: Zod (inside Scalar's client) probes `new Function("")` to compile its parsers, some at import
// time; the console page's CSP forbids eval, so the probe would report a violation. Jitless parsing needs none.
import { config } from "zod";

config({ jitless: true });
