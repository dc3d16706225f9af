import { Avatar, Button, Menu, Text } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserEdit } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { roleLabelKey, type User } from '@gatehouse/shared';
import { useLogout } from '../../features/auth/use-logout';

/** Usernames are shown truncated to 15 characters. */
const NAME_DISPLAY_LENGTH = 15;

export function truncateName(name: string): string {
  return name.length > NAME_DISPLAY_LENGTH ? `${name.slice(0, NAME_DISPLAY_LENGTH)}…` : name;
}

export function UserMenu({ user }: { user: User }) {
  const { t } = useTranslation();
  const logout = useLogout();
  const name = user.display_name || user.username;
  return (
    <Menu position="bottom-end" width={220} openDelay={50} closeDelay={70} withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          color="dark"
          px={6}
          aria-label={t('nav.accountMenu')}
          leftSection={
            <Avatar size={28} radius="xl" color="blue">
              {name.slice(0, 1).toUpperCase()}
            </Avatar>
          }
          rightSection={<IconChevronDown size={14} />}
        >
          <Text size="sm" fw={500} visibleFrom="xs">
            {truncateName(name)}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {truncateName(user.username)} · {t(roleLabelKey(user.role))}
        </Menu.Label>
        <Menu.Item component={Link} to="/user/edit" leftSection={<IconUserEdit size={16} />}>
          {t('users.self.title')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
          {t('nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
