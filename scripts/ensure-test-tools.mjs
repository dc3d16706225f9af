// First step of `npm test`: install the browser and fonts the end-to-end tests need when they are missing and
// this machine lets us (Debian, root or passwordless sudo); otherwise stop before any test with the command to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { TEST_TOOLS, planTestTools } from './test-tools.mjs';

const isMissingSomething = TEST_TOOLS.some((tool) => !existsSync(tool.path));
const isRoot = process.getuid?.() === 0;
const hasAptGet = existsSync('/usr/bin/apt-get');
// Asked only when it matters: `sudo -n` never prompts, it fails when a password would be needed.
const hasPasswordlessSudo =
  isMissingSomething &&
  !isRoot &&
  hasAptGet &&
  spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;

const plan = planTestTools({ exists: existsSync, isRoot, hasPasswordlessSudo, hasAptGet });

if (plan.action === 'stop') {
  console.error(plan.message);
  process.exit(1);
}

if (plan.action === 'install') {
  console.log(plan.announcement);
  for (const [command, ...args] of plan.commands) {
    // Quiet unless it fails: then apt's own words say why.
    const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (result.status !== 0) {
      console.error(result.stderr || result.error?.message || '');
      console.error(
        `npm test: "${[command, ...args].join(' ')}" failed; install ${plan.packages.join(' ')} and run npm test again.`,
      );
      process.exit(1);
    }
  }
  const stillMissing = TEST_TOOLS.filter((tool) => !existsSync(tool.path));
  if (stillMissing.length > 0) {
    console.error(
      `npm test: apt-get finished but ${stillMissing.map((tool) => tool.path).join(' and ')} is still missing.`,
    );
    process.exit(1);
  }
}
