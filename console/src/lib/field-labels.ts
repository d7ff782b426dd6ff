/**
 * The admin API names a field as a plain path (`api_addrs[1].addr`, docs/console.md#error-codes);
 * the console says it as its forms label it. Lists typed one per line (the region's addresses)
 * are counted in lines, from 1.
 */

/** Labels as the forms show them, by the API's field name. */
const labels: Record<string, string> = {
  title: '标题',
  content: '正文',
  topup: '置顶',
  state: '状态',
  publish_at: '发布时间',
  version: '版本号',
  current: '当前密码',
  next: '新密码',
  name: '用户名',
  password: '密码',
  api_addrs: 'API 地址',
  allocator_addrs: '分配器地址',
  addr: '地址',
  use_cdn: '使用 CDN',
  common_cdn_bucket_url: 'CDN 地址',
  url: '地址',
  timeout_ms: '超时时间',
  min_version: '最低支持版本',
  file_key: '安装包文件',
  notes: '更新说明',
  released_at: '发布时间',
  min_os_version: '最低系统版本',
  signature: '更新签名',
  size: '文件大小',
  sha256: 'SHA-256 校验值',
  os: '平台',
  id: '编号',
};

/** Lists the console edits as text, one entry a line: an entry's place is its line. */
const lineLists = new Set(['api_addrs', 'allocator_addrs']);

/** True for a field that is a list (its limits count entries, not characters). */
export const isList = (path: string) => lineLists.has(path);

const labelOf = (name: string) => labels[name] ?? name;

/** `api_addrs[1].addr` → "API 地址第 2 行"; `items[0].title` → "第 1 个项目的标题". */
export function fieldLabel(path: string): string {
  const steps = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let said = '';
  let listName = '';
  for (const step of steps) {
    const index = /^\[(\d+)\]$/.exec(step)?.[1];
    if (index !== undefined) {
      const place = Number(index) + 1;
      said = lineLists.has(listName) ? `${said}第 ${place} 行` : `第 ${place} 个${said}`;
      continue;
    }
    // An address on its own line is the whole line: "API 地址第 2 行", not "…的地址".
    if (step === 'addr' && lineLists.has(listName)) continue;
    said = said === '' ? labelOf(step) : `${said}的${labelOf(step)}`;
    listName = step;
  }
  return said === '' ? '内容' : said;
}
