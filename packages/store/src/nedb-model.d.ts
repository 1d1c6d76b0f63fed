// nedb's document helpers, which its typings leave out.
declare module "@seald-io/nedb/lib/model" {
  /** A deep copy of a stored value (objects, arrays, dates); primitives are returned as they are. */
  export function deepCopy<V>(value: V): V;
}
