import { ConfirmDialog } from '../../ui/confirm-dialog';
import { osLabels, type Os } from './api';

/** Publishing and rolling back change what every visitor downloads: each asks first and names
 * the platform and the version before and after (docs/console.md#releases-settings-and-numbers). */
export function ReleaseConfirm({
  os,
  from,
  to,
  rollback = false,
  share = 100,
  endsRollout = false,
  open,
  onOpenChange,
  onConfirm,
}: {
  os: Os;
  /** The version offered now (null: none, or no version number). */
  from: string | null;
  /** The version it becomes; '' when the APK's manifest will say. */
  to: string;
  rollback?: boolean;
  /** Below 100: a staged roll-out's first share of installs. */
  share?: number;
  /** A roll-out is staged now: rolling back ends it. */
  endsRollout?: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
}) {
  const platform = osLabels[os];
  const target = to === '' ? '安装包中的版本' : to;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={rollback ? `回滚 ${platform} 到 ${target}？` : `发布 ${platform} ${target}？`}
      description={
        <>
          <p>
            所有访客下载的 {platform} 安装包将立即从 {from ?? '（无）'} 变为 {target}。
          </p>
          {share < 100 && (
            <p>
              已安装的应用中先有 {share}% 在检查更新时收到 {target}，其余仍提供 {from ?? '（无）'}
              ；比例可在卡片上逐步提高或暂停。
            </p>
          )}
          {rollback && endsRollout && <p>正在进行的分阶段发布会结束：所有安装都提供 {target}。</p>}
          {!rollback && from !== null && from === to && (
            <p className="font-medium text-danger">与当前版本号相同：访客会收到同一版本号的另一个安装包。</p>
          )}
        </>
      }
      confirm={rollback ? '回滚' : '发布'}
      onConfirm={onConfirm}
    />
  );
}
