import {
  ActionIcon,
  Center,
  Menu,
  SegmentedControl,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const schemes: { value: MantineColorScheme; label: string; icon: typeof IconSun }[] = [
  { value: 'light', label: 'common.colorSchemeLight', icon: IconSun },
  { value: 'dark', label: 'common.colorSchemeDark', icon: IconMoon },
  { value: 'auto', label: 'common.colorSchemeAuto', icon: IconDeviceDesktop },
];

/**
 * Light, dark or the system's scheme. Mantine's color scheme manager keeps the choice in this
 * browser's localStorage, so it survives a reload.
 */
export function ColorSchemeSwitch() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const Current = schemes.find((scheme) => scheme.value === colorScheme)?.icon ?? IconSun;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('common.changeColorScheme')}>
          <Current size={20} stroke={1.6} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {schemes.map(({ value, label, icon: Icon }) => (
          <Menu.Item
            key={value}
            leftSection={<Icon size={16} stroke={1.6} />}
            onClick={() => setColorScheme(value)}
            fw={colorScheme === value ? 600 : undefined}
            aria-current={colorScheme === value ? 'true' : undefined}
          >
            {t(label)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The same choice as a row of three buttons, for the mobile menu. */
export function ColorSchemeSegments() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <SegmentedControl
      fullWidth
      aria-label={t('common.changeColorScheme')}
      value={colorScheme}
      onChange={(value) => setColorScheme(value as MantineColorScheme)}
      data={schemes.map(({ value, label, icon: Icon }) => ({
        value,
        label: (
          <Center style={{ gap: 6 }}>
            <Icon size={16} stroke={1.6} />
            <span>{t(label)}</span>
          </Center>
        ),
      }))}
    />
  );
}
