// nedb's document helpers, which its typings leave out.
declare module "@seald-io/nedb/lib/model" {
  /** A deep copy of a stored value (objects, arrays, dates); primitives are returned as they are. */
  export function deepCopy<V>(value: V): V;
  /** One document as a line of the data file (nedb's own format, with its date and key checks). */
  export function serialize(doc: unknown): string;
}
