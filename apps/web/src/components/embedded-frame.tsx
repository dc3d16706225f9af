import classes from './embedded-frame.module.css';

/** Only web pages may be framed: a `javascript:` or `data:` link set in the options would run in our origin. */
export const isFramableUrl = (url: string) => /^https?:\/\//i.test(url.trim());

/** A full-height frame for operator-configured pages (home page URL, chat link). */
export function EmbeddedFrame({ src, title }: { src: string; title: string }) {
  if (!isFramableUrl(src)) return null;
  return <iframe className={classes.frame} src={src.trim()} title={title} />;
}
