import type { AppContext } from '../context';
import { applyConfigFile, formatDiff } from './apply-config-file';
import { ConfigFileError } from './read-config-file';

/** The environment variable naming the configuration file; unset or empty = no file. */
export const CONFIG_FILE_VARIABLE = 'GATEHOUSE_CONFIG';

type Log = { info(message: string): void; error(message: string): void };

export function configFilePath(env: NodeJS.ProcessEnv = process.env): string | null {
  return env[CONFIG_FILE_VARIABLE]?.trim() || null;
}

/** A failure to read or apply the file, as one line for the log (line and column when the file is at fault). */
export function describeConfigFailure(error: unknown): string {
  if (error instanceof ConfigFileError)
    return `configuration file refused, nothing changed: ${error.message}`;
  const reason = error instanceof Error ? error.message : String(error);
  return `configuration file not applied, nothing changed: ${reason}`;
}

/**
 * Applies the file on SIGHUP, one run at a time (a signal during a run asks for one more run after it). A
 * refused file is logged and the running configuration stays as it was. Answers how to stop listening.
 */
export function reapplyOnHangup(context: AppContext, filePath: string, log: Log): () => void {
  let running: Promise<void> | null = null;
  let isAgainWanted = false;
  const run = async (): Promise<void> => {
    do {
      isAgainWanted = false;
      try {
        log.info(formatDiff(await applyConfigFile(context, filePath)));
      } catch (error) {
        log.error(describeConfigFailure(error));
      }
    } while (isAgainWanted);
    running = null;
  };
  const onHangup = () => {
    if (running) isAgainWanted = true;
    else running = run();
  };
  process.on('SIGHUP', onHangup);
  return () => process.off('SIGHUP', onHangup);
}
