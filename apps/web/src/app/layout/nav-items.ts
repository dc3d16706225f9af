import {
  IconApi,
  IconBook,
  IconCoin,
  IconCreditCard,
  IconHome,
  IconKey,
  IconListDetails,
  IconMessageCircle,
  IconMessages,
  IconSettings,
  IconShieldSearch,
  IconSitemap,
  IconTicket,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';

export interface NavItem {
  /** i18n key of the label */
  label: string;
  to: string;
  icon: Icon;
  adminOnly?: boolean;
  /** Paths under `to` that belong to another menu entry or to none. */
  exceptPaths?: string[];
}

const homeItem: NavItem = { label: 'nav.home', to: '/', icon: IconHome };
const chatItem: NavItem = { label: 'nav.chat', to: '/chat', icon: IconMessageCircle };

/** Top menu, in order; chat is inserted after home only when a chat link is configured. */
const menuItems: NavItem[] = [
  { label: 'nav.channel', to: '/channel', icon: IconSitemap, adminOnly: true },
  { label: 'nav.token', to: '/token', icon: IconKey },
  { label: 'nav.playground', to: '/playground', icon: IconMessages },
  { label: 'nav.redemption', to: '/redemption', icon: IconTicket, adminOnly: true },
  { label: 'nav.topup', to: '/topup', icon: IconCreditCard },
  { label: 'nav.pricing', to: '/pricing', icon: IconCoin },
  // /user/edit is everyone's own profile, not the admin user list.
  {
    label: 'nav.user',
    to: '/user',
    icon: IconUsers,
    adminOnly: true,
    exceptPaths: ['/user/edit', '/user/reset'],
  },
  { label: 'nav.log', to: '/log', icon: IconListDetails },
  { label: 'nav.audit', to: '/audit', icon: IconShieldSearch, adminOnly: true },
  { label: 'nav.setting', to: '/setting', icon: IconSettings },
  { label: 'nav.apiReference', to: '/api-reference', icon: IconApi, adminOnly: true },
  // The operator's about page doubles as the usage tutorial.
  { label: 'nav.tutorial', to: '/about', icon: IconBook },
];

export function visibleNavItems({
  isAdmin,
  hasChatLink,
}: {
  isAdmin: boolean;
  hasChatLink: boolean;
}): NavItem[] {
  const items = menuItems.filter((item) => !item.adminOnly || isAdmin);
  return hasChatLink ? [homeItem, chatItem, ...items] : [homeItem, ...items];
}

export function isActiveItem({ to, exceptPaths = [] }: NavItem, pathname: string): boolean {
  if (to === '/') return pathname === '/';
  if (exceptPaths.includes(pathname)) return false;
  return pathname === to || pathname.startsWith(`${to}/`);
}
