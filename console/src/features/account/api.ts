import { useMutation } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { useNotify } from '../../ui/toasts';

/** Changes one's own password; the server signs out one's other sessions, on every server.
 * `onSuccess` empties the form. */
export function useChangePassword(config: { onSuccess: () => void }) {
  const notify = useNotify();
  return useMutation({
    mutationFn: ({ current, next }: { current: string; next: string }) =>
      call<undefined>('/session/password', { method: 'PUT', body: { current, next } }),
    onSuccess: () => {
      config.onSuccess();
      notify({ text: '密码已修改，其他设备上的登录已退出' });
    },
  });
}
