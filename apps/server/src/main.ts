import cluster from 'node:cluster';
import { ConfigError, loadConfig } from './config/config';
import { chooseLogFormat } from './logging/logger-options';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logFormat = chooseLogFormat(config.logFormat, process.stdout.isTTY === true);
  if (config.workers > 1 && cluster.isPrimary) {
    const { runPrimary } = await import('./workers/primary');
    await runPrimary(config, logFormat);
    return;
  }
  // Loaded apart (bundle.mjs splits the bundle there): the primary of several workers never loads the server.
  const { serve } = await import('./serve');
  await serve(config, logFormat);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
