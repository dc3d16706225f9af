// What `npm test` needs from the machine beyond npm packages, and what to do when some of it is missing.
// Pure, so it is tested without touching the machine: ensure-test-tools.mjs looks and runs the plan.

/** Debian's Chromium drives the end-to-end tests (never a downloaded browser); the fonts draw the Chinese console. */
export const TEST_TOOLS = [
  { path: '/usr/bin/chromium', debianPackage: 'chromium', what: 'Chromium (/usr/bin/chromium)' },
  {
    path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
    debianPackage: 'fonts-noto-cjk',
    what: 'the Noto CJK fonts (the Chinese console)',
  },
];

/** Another apt run (unattended upgrades, say) makes ours wait instead of failing at once. */
const WAIT_FOR_LOCK = '-oDPkg::Lock::Timeout=300';

/**
 * @typedef {object} Machine
 * @property {(path: string) => boolean} exists
 * @property {boolean} isRoot
 * @property {boolean} hasPasswordlessSudo  `sudo -n true` succeeds
 * @property {boolean} hasAptGet
 *
 * @typedef {{ action: 'none' }
 *   | { action: 'install', packages: string[], announcement: string, commands: string[][] }
 *   | { action: 'stop', message: string }} Plan
 */

/**
 * Nothing missing: nothing to do. Missing on a Debian machine where we may install: apt-get, quietly (the
 * commands run as they are; `env` sets the non-interactive frontend, also through sudo). Otherwise: stop before
 * any test runs, with the command a person should run.
 * @param {Machine} machine
 * @returns {Plan}
 */
export function planTestTools(machine) {
  const missing = TEST_TOOLS.filter((tool) => !machine.exists(tool.path));
  if (missing.length === 0) return { action: 'none' };
  const packages = missing.map((tool) => tool.debianPackage);
  const needs = `npm test: the end-to-end tests need ${missing.map((tool) => tool.what).join(' and ')}`;
  if (!machine.hasAptGet) {
    return {
      action: 'stop',
      message:
        `${needs}; this machine has no apt-get, so install them with its package manager (Debian's packages: ` +
        `${packages.join(', ')}) and run npm test again.`,
    };
  }
  if (!machine.isRoot && !machine.hasPasswordlessSudo) {
    return {
      action: 'stop',
      message: `${needs}. Install with\n  sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}\nand run npm test again.`,
    };
  }
  const sudo = machine.isRoot ? [] : ['sudo', '-n'];
  return {
    action: 'install',
    packages,
    announcement: `npm test: installing ${packages.join(' and ')} with apt-get for the end-to-end tests (once, a minute or two)`,
    commands: [
      [...sudo, 'apt-get', 'update', '-qq', WAIT_FOR_LOCK],
      [
        ...sudo,
        'env',
        'DEBIAN_FRONTEND=noninteractive',
        'apt-get',
        'install',
        '-y',
        '-qq',
        WAIT_FOR_LOCK,
        ...packages,
      ],
    ],
  };
}
