import { useLocation } from 'wouter';
import { useDeleteBulletin, useDuplicateBulletin, usePinBulletin } from './api';

/** The list's row actions (docs/console.md#row-actions): each refreshes the list and says what it did. */
export function useRowActions() {
  const [, navigate] = useLocation();
  const pin = usePinBulletin();
  const remove = useDeleteBulletin();
  const duplicate = useDuplicateBulletin({ onSuccess: (made) => navigate(`/bulletins/${made.id}`) });
  return { pin, remove, duplicate };
}
