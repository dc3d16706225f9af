import { Box, type BoxProps } from '@mantine/core';
import { sanitizeHtml } from './sanitize-html';

interface SanitizedHtmlProps extends BoxProps {
  html: string;
}

export function SanitizedHtml({ html, ...boxProps }: SanitizedHtmlProps) {
  return <Box {...boxProps} dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;
}
