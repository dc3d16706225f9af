import { useMemo } from 'react';
import { Typography } from '@mantine/core';
import { marked } from 'marked';
import { sanitizeHtml } from './sanitize-html';

/** Markdown (which may embed HTML) from the server, rendered and then sanitised. */
export function MarkdownContent({ markdown }: { markdown: string }) {
  const html = useMemo(() => sanitizeHtml(marked.parse(markdown, { async: false })), [markdown]);
  return (
    <Typography>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
