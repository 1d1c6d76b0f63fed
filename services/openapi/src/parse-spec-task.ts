// The worker-thread task of spec processing (@docshelf/worker-pool): parseSpec, a pure function of the
// spec's text, run off the event loop that answers requests. Its bounds (expanded values, nesting) hold
// as before; a refusal comes back as data, since an Error's own fields (the code) do not cross threads.
import { parseSpec, type ParsedSpec } from "./parse-spec";
import { ProcessingFailure, type ProcessErrorCode } from "./processing-failure";

export type ParseSpecAnswer = { ok: true; parsed: ParsedSpec } | { ok: false; code: ProcessErrorCode; message: string };

export async function parseSpecTask(text: string): Promise<ParseSpecAnswer> {
  try {
    return { ok: true, parsed: await parseSpec(text) };
  } catch (err) {
    if (err instanceof ProcessingFailure) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
}
