import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { useNotify } from '../../ui/toasts';
import {
  bulletinKeys,
  duplicateBulletin,
  pinBulletin,
  removeBulletin,
  restoreBulletin,
  type AdminBulletin,
} from './api';

const reason = (error: unknown) => (error instanceof Error ? error.message : '');

/** The list's row actions (docs/console.md#row-actions): each refreshes the list and says what it did. */
export function useRowActions() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [, navigate] = useLocation();
  const refresh = () => queryClient.invalidateQueries({ queryKey: bulletinKeys.all });

  const pin = useMutation({
    mutationFn: (bulletin: AdminBulletin) => pinBulletin(bulletin.id, bulletin.topup === 1 ? 0 : 1, bulletin.version),
    onSuccess: (saved) => {
      void refresh();
      notify({ text: saved.topup === 1 ? '已置顶' : '已取消置顶' });
    },
    onError: (error) => {
      void refresh();
      notify({ text: `操作失败：${reason(error)}` });
    },
  });

  const remove = useMutation({
    mutationFn: (id: number) => removeBulletin(id),
    onSuccess: (_nothing, id) => {
      void refresh();
      notify({
        text: '公告已删除',
        action: {
          label: '撤销',
          run: () => {
            restoreBulletin(id)
              .then(() => {
                void refresh();
                notify({ text: '公告已恢复' });
              })
              .catch((error: unknown) => notify({ text: `撤销失败：${reason(error)}` }));
          },
        },
      });
    },
    onError: (error) => notify({ text: `删除失败：${reason(error)}` }),
  });

  const duplicate = useMutation({
    mutationFn: (id: number) => duplicateBulletin(id),
    onSuccess: (made) => {
      void refresh();
      navigate(`/bulletins/${made.id}`);
      notify({ text: '已复制为新草稿' });
    },
    onError: (error) => notify({ text: `复制失败：${reason(error)}` }),
  });

  return { pin, remove, duplicate };
}
