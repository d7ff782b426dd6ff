import { useQuery } from '@tanstack/react-query';
import type { Operator } from '@chat-site/contract/admin';
import { call, signedOut } from './api';

export type { Operator };

export const sessionKey = ['session'] as const;

/** Who is signed in: undefined while asking, null when nobody is (or the session ended). */
export function useOperator(): Operator | null | undefined {
  const { data } = useQuery({
    queryKey: sessionKey,
    queryFn: async () => {
      try {
        return await call<Operator>('/session');
      } catch (error) {
        if (signedOut(error)) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
  return data;
}
