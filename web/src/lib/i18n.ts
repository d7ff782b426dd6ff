import { zhCN, type MessageKey, type Messages } from '../config/messages.zh-CN';

const catalogs: Record<string, Messages> = { 'zh-CN': zhCN };
const active: Messages = catalogs['zh-CN'] ?? zhCN;

/** The text for `key`, with `{name}` placeholders filled from `values`. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return active[key].replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}
