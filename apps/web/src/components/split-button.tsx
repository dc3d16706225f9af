import type { ReactNode } from 'react';
import { ActionIcon, Button, Group, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';

interface SplitButtonProps {
  label: string;
  onClick: () => void;
  loading?: boolean;
  /** names the chevron and heads its menu */
  menuLabel: string;
  /** accessible name of the chevron, e.g. "Copy as (laptop)" */
  menuAriaLabel: string;
  /** Menu.Item elements; without them only the main button shows */
  menuItems?: ReactNode;
  /** a long menu scrolls */
  menuMaxHeight?: number;
}

/** A compact row button with a chevron menu of variants (test with another model, copy as a snippet …). */
export function SplitButton(props: SplitButtonProps) {
  const { label, onClick, loading, menuLabel, menuAriaLabel, menuItems, menuMaxHeight } = props;
  return (
    <Group gap={0} wrap="nowrap">
      <Button
        size="compact-xs"
        variant="light"
        loading={loading}
        onClick={onClick}
        style={menuItems ? { borderTopRightRadius: 0, borderBottomRightRadius: 0 } : undefined}
      >
        {label}
      </Button>
      {menuItems && (
        <Menu position="bottom-end" withinPortal shadow="md">
          <Menu.Target>
            <ActionIcon
              variant="light"
              size={22}
              aria-label={menuAriaLabel}
              style={{
                borderTopLeftRadius: 0,
                borderBottomLeftRadius: 0,
                borderLeft: '1px solid var(--mantine-color-body)',
              }}
            >
              <IconChevronDown size={14} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown mah={menuMaxHeight} style={menuMaxHeight ? { overflowY: 'auto' } : undefined}>
            <Menu.Label>{menuLabel}</Menu.Label>
            {menuItems}
          </Menu.Dropdown>
        </Menu>
      )}
    </Group>
  );
}
