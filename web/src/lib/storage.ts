/** The site's local storage (docs/site.md#local-storage). Reads and writes never throw:
 * storage can be full, disabled, or blocked in a private window, and the site must work without
 * it. */
export const storageKeys = {
  apiAddrs: 'chat-site.api-addrs',
  allocatorAddrs: 'chat-site.allocator-addrs',
  lastApiAddr: 'chat-site.last-api-addr',
  theme: 'chat-site.theme',
  downloadBase: 'chat-site.download-base',
  language: 'chat-site.language',
  lastGood: 'chat-site.last-good.v1',
} as const;

type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

export function readString(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the value is only a hint for the next visit.
  }
}

export function readStringList(key: StorageKey): string[] {
  try {
    const value: unknown = JSON.parse(readString(key) || '[]');
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

export function writeStringList(key: StorageKey, value: readonly string[]): void {
  writeString(key, JSON.stringify(value));
}
