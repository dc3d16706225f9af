import { isAdminRole } from '@gatehouse/shared';
import { useStoredUser } from '../../api/session';
import { useBranding } from '../../api/status';
import { visibleNavItems, type NavItem } from './nav-items';

export function useNavItems(): NavItem[] {
  const user = useStoredUser();
  const { chatLink } = useBranding();
  return visibleNavItems({ isAdmin: user !== null && isAdminRole(user.role), hasChatLink: chatLink !== '' });
}
