/**
 * What the console tells the operator when the admin API refuses: its own Chinese sentence for
 * each machine code, with the field as the form labels it and sizes in KB/MB
 * (docs/admin-api.md#error-codes). The English `msg` is for scripts and is never shown.
 */
import { fieldLabel, isList } from './field-labels';

/** The refusal as the admin API sends it: {status, msg} and, beside, its code and field. */
export interface Refusal {
  status: number;
  code?: unknown;
  field?: unknown;
  limit?: unknown;
  size?: unknown;
  /** What the server found in place of the value sent (a signature's key id, the file or
   * version its trusted comment names). */
  found?: unknown;
}

/** 1.5 MB, 20 KB, in binary units as the console shows file sizes elsewhere. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} 字节`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${trim(kb)} KB`;
  return `${trim(kb / 1024)} MB`;
}

const trim = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, ''));

type Say = (field: string, limit: number | undefined, size: number | undefined, refusal: Refusal) => string;

const sentences: Record<string, Say> = {
  invalid_field: (field) => `${field}填写有误，请检查后重试`,
  missing_field: (field) => `请填写${field}`,
  unknown_field: (field) => `提交的内容里有无法识别的项（${field}），请刷新页面后重试`,
  too_long: (field, limit, _size, { field: path }) =>
    limit === undefined ? `${field}太长了` : `${field}最多 ${limit} ${unitOf(path)}`,
  too_short: (field, limit, _size, { field: path }) =>
    limit === undefined ? `${field}太短了` : `${field}至少要有 ${limit} ${unitOf(path)}`,
  out_of_range: (field, limit) => (limit === undefined ? `${field}超出范围` : `${field}超出范围（界限为 ${limit}）`),
  duplicate: (field) => `${field}与前面的地址重复`,
  bad_request: () => '提交的内容有误，请检查后重试',
  bad_json: () => '提交的内容无法识别，请刷新页面后重试',
  bad_file_type: () => '不支持这种文件，或文件扩展名与内容不符',
  too_large: (_field, limit, size) =>
    limit === undefined
      ? '文件太大了'
      : size === undefined
        ? `文件太大了，上限为 ${sizeText(limit)}`
        : `文件太大了（${sizeText(size)}），上限为 ${sizeText(limit)}`,
  unsupported_type: () => '不支持这种文件或内容格式',
  wrong_password: () => '当前密码不正确',
  wrong_credentials: () => '用户名或密码不正确',
  no_password: () => '用管理令牌登录时没有密码可改',
  signed_out: () => '登录已失效，请重新登录',
  forbidden: () => '当前账号没有权限进行此操作',
  not_found: () => '要找的内容不存在，可能已被删除',
  version_conflict: () => '这条公告已在别处保存过',
  in_use: () => '文件仍在使用中，请先修改或移除用到它的地方',
  file_deleted: () => '这个版本的安装包文件已被删除，无法再次上线',
  bad_signature: () => '更新签名无效：请原样粘贴打包时生成的签名文件的全部内容',
  signature_wrong_key: (_field, _limit, _size, { found }) =>
    `更新签名不是用设置的更新公钥签的${named(found, (id) => `（签名的密钥 ID 为 ${id}）`)}`,
  signature_mismatch: () => '更新签名与上传的安装包内容不符：这不是这个文件的签名',
  signature_other_file: (_field, _limit, _size, { found }) =>
    `这个更新签名是给${named(found, (file) => `文件 ${file} `, '另一个文件')}的，不是这次发布的安装包`,
  signature_other_version: (_field, _limit, _size, { found }) =>
    `这个更新签名是给${named(found, (version) => `版本 ${version} `, '另一个版本')}的，与这次发布的版本号不符`,
  payload_wrong_platform: () => '只有电脑端的版本可以带更新包',
  payload_wrong_kind: (_field, _limit, _size, { found }) =>
    `${named(found, (file) => `文件 ${file} `, '这个文件')}不是所选类型的更新包：请检查类型和文件`,
  payload_repeated: () => '同一类型、同一架构的更新包只能有一个',
  conflict: () => '与已保存的内容冲突，请刷新后重试',
  rate_limited: () => '尝试次数过多，请稍后再试',
  busy: () => '服务器正忙，请稍后再试',
  storage_full: () => '文件存储空间已满，请联系管理员',
  server_error: (_field, _limit, _size, { status }) => `服务器出错了（${status}），请稍后重试`,
};

/** What the server found, said as `say` puts it, or `otherwise` when it sent none. */
const named = (found: unknown, say: (text: string) => string, otherwise = '') =>
  typeof found === 'string' && found !== '' ? say(found) : otherwise;

/** Characters, or entries for a list. */
const unitOf = (path: unknown) => (typeof path === 'string' && isList(path) ? '项' : '个字符');

const numberOr = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The sentence for `refusal`; a code this console does not know still gets Chinese, with the status. */
export function refusalText(refusal: Refusal): string {
  const say = typeof refusal.code === 'string' ? sentences[refusal.code] : undefined;
  if (say === undefined) return `操作没有成功（服务器返回 ${refusal.status}），请稍后重试`;
  const field = typeof refusal.field === 'string' && refusal.field !== '' ? fieldLabel(refusal.field) : '内容';
  return say(field, numberOr(refusal.limit), numberOr(refusal.size), refusal);
}
