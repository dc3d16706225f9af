import { Code } from '@mantine/core';
import { modals } from '@mantine/modals';

/** When the clipboard refuses a multi-line text, show it selectable so it can be copied by hand. */
export function showManualCopy(title: string, text: string): void {
  modals.open({
    title,
    size: 'lg',
    children: (
      <Code block style={{ userSelect: 'all', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {text}
      </Code>
    ),
  });
}
