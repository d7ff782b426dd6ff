import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { sessionKey, type Operator } from '../../lib/session';

/** Signs in: the session's answer is who is signed in now, and the console opens. */
export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credentials: { name: string; password: string }) =>
      call<Operator>('/session', { method: 'POST', body: credentials }),
    onSuccess: (operator) => client.setQueryData(sessionKey, operator),
  });
}
