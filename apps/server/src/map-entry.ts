/** A Map or WeakMap, as entryOf reads and fills it. */
interface KeyedStore<Key, Value> {
  get(key: Key): Value | undefined;
  set(key: Key, value: Value): unknown;
}

/**
 * The value under `key`, made by `make` and stored first when absent: the inner maps of the caches kept by
 * more than one key. Pass a function made once (e.g. `newMap`), not a closure per call, on hot paths.
 */
export function entryOf<Key, Value>(
  store: KeyedStore<Key, Value>,
  key: Key,
  make: () => NoInfer<Value>,
): Value {
  let value = store.get(key);
  if (value === undefined) {
    value = make();
    store.set(key, value);
  }
  return value;
}

export const newMap = <Key, Value>(): Map<Key, Value> => new Map<Key, Value>();
export const newWeakMap = <Key extends object, Value>(): WeakMap<Key, Value> => new WeakMap<Key, Value>();
