export interface MessageTree {
  [key: string]: string | MessageTree;
}

/** Merges message trees; a later file wins on a clash, which the i18n test reports as a bug. */
export function deepMerge(target: MessageTree, source: MessageTree): MessageTree {
  const merged: MessageTree = { ...target };
  for (const [key, value] of Object.entries(source)) {
    const existing = merged[key];
    merged[key] =
      typeof value === 'object' && typeof existing === 'object' ? deepMerge(existing, value) : value;
  }
  return merged;
}
