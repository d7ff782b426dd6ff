/**
 * The admin API names a field as a plain path (`api_addrs[1].addr`, docs/admin-api.md#error-codes);
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
  payloads: '更新包',
  role: '类型',
  arch: '架构',
  size: '文件大小',
  sha256: 'SHA-256 校验值',
  os: '平台',
  icp_filing: 'ICP 备案号',
  police_filing: '公安备案号',
  police_badge: '公安备案图标',
  harmonyos_url: 'HarmonyOS NEXT 的华为应用市场地址',
  stores: 'Android 应用商店',
  appgallery: '华为应用市场地址',
  xiaomi: '小米应用商店地址',
  oppo: 'OPPO 软件商店地址',
  vivo: 'vivo 应用商店地址',
  honor: '荣耀应用市场地址',
  yingyongbao: '应用宝地址',
  google_play: 'Google Play 地址',
  verification: '搜索引擎验证',
  baidu: '百度验证码',
  sogou: '搜狗验证码',
  so360: '360 搜索验证码',
  bing: '必应验证码',
  google: 'Google 验证码',
  id: '编号',
};

/** Lists the console edits as text, one entry a line: an entry's place is its line. */
const lineLists = new Set(['api_addrs', 'allocator_addrs']);

/** True for a field that is a list (its limits count entries, not characters). */
export const isList = (path: string) => lineLists.has(path);

const labelOf = (name: string) => labels[name] ?? name;

/** `api_addrs[1].addr` → "API 地址第 2 行"; `items[0].title` → "第 1 个项目的标题";
 * `payloads/1/url` → "第 2 个更新包的地址". */
export function fieldLabel(path: string): string {
  // The release form's payloads are named as JSON pointers: `payloads/0/file_key`.
  const steps = path.match(/[^./[\]]+|\[\d+\]/g)?.map((step) => (/^\d+$/.test(step) ? `[${step}]` : step)) ?? [];
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
