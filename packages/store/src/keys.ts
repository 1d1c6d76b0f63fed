// Any key in a stored map: a document's field names may be any string (`.`, `$`, a leading `$`, empty,
// `__proto__`, Unicode), though MongoDB treats `.` and a leading `$` as paths and operators. Such a key is
// stored encoded, reversibly, and decoded on every read; every other key is stored as it is, so data written
// before this existed reads unchanged and filters on ordinary field paths work as before.
//
// The encoding: MARKER (U+E000, a private-use character no stored key began with before) followed by
// the key with `%`, `.`, `$` and NUL written as `%25`, `%2E`, `%24`, `%00`. A key that itself starts with
// MARKER is encoded too, so decoding is exact for every string.

const MARKER = "\uE000";
const MARKER_CODE = 0xe000;

/** Whether a key cannot be stored as it is. */
function needsEncoding(key: string): boolean {
  const length = key.length;
  if (length === 0) return true;
  const first = key.charCodeAt(0);
  if (first === 36 /* $ */ || first === MARKER_CODE) return true;
  for (let i = 0; i < length; i++) {
    const c = key.charCodeAt(i);
    if (c === 46 /* . */ || c === 0) return true;
  }
  return key === "__proto__";
}

export function encodeKey(key: string): string {
  if (!needsEncoding(key)) return key;
  return MARKER + key.replace(/[%.$\0]/g, (c) => (c === "%" ? "%25" : c === "." ? "%2E" : c === "$" ? "%24" : "%00"));
}

export function decodeKey(key: string): string {
  if (key.charCodeAt(0) !== MARKER_CODE) return key;
  return key.slice(1).replace(/%(25|2E|24|00)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Sets a property as an own data property, even `__proto__` (plain assignment would change the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function mapKeys(value: unknown, wants: (key: string) => boolean, rename: (key: string) => string): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as unknown;
      const mapped = item !== null && typeof item === "object" ? mapKeys(item, wants, rename) : item;
      if (mapped !== item) {
        out ??= value.slice();
        out[i] = mapped;
      }
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  // No copy unless a key (here or below) changes: the usual document goes through untouched.
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const item = value[key];
    const mapped = item !== null && typeof item === "object" ? mapKeys(item, wants, rename) : item;
    const renamed = wants(key) ? rename(key) : key;
    if (!out && (mapped !== item || renamed !== key)) {
      out = {};
      for (let j = 0; j < i; j++) put(out, keys[j], value[keys[j]]);
    }
    if (out) put(out, renamed, mapped);
  }
  return out ?? value;
}

const isEncoded = (key: string) => key.charCodeAt(0) === MARKER_CODE;

/**
 * A value with every object key that cannot be stored as it is encoded, at any depth. Returns the value
 * itself (no copy) when no key needs it, which is the usual case.
 */
export function encodeKeys<T>(value: T): T {
  return mapKeys(value, needsEncoding, encodeKey) as T;
}

/** The inverse of {@link encodeKeys}; the value itself when nothing was encoded. */
export function decodeKeys<T>(value: T): T {
  return mapKeys(value, isEncoded, decodeKey) as T;
}
