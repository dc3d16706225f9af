import classes from './embedded-frame.module.css';

/** A full-height frame for operator-configured pages (home page URL, chat link). */
export function EmbeddedFrame({ src, title }: { src: string; title: string }) {
  return <iframe className={classes.frame} src={src} title={title} />;
}
