import { EmbeddedFrame } from '../../components/embedded-frame';
import { MarkdownContent } from '../../components/markdown-content';

export const isFrameUrl = (content: string) => content.trim().startsWith('https://');

/** Content set in the settings: a URL is shown in a frame, anything else as sanitised Markdown/HTML. */
export function OperatorContent({ content, frameTitle }: { content: string; frameTitle: string }) {
  if (isFrameUrl(content)) return <EmbeddedFrame src={content.trim()} title={frameTitle} />;
  return <MarkdownContent markdown={content} />;
}
