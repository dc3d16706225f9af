import { describe, expect, it } from 'vitest';
import { TEST_TOOLS, planTestTools } from './test-tools.mjs';

const [chromium, fonts] = TEST_TOOLS.map((tool) => tool.path);

/** A Debian machine with these files, run as a normal user without sudo unless told otherwise. */
function machine(files, overrides = {}) {
  return {
    exists: (path) => files.includes(path),
    isRoot: false,
    hasPasswordlessSudo: false,
    hasAptGet: true,
    ...overrides,
  };
}

describe('planTestTools', () => {
  it('does nothing when the browser and the fonts are there', () => {
    expect(planTestTools(machine([chromium, fonts]))).toEqual({ action: 'none' });
    expect(planTestTools(machine([chromium, fonts], { hasAptGet: false }))).toEqual({ action: 'none' });
  });

  it('installs what is missing, quietly, as root', () => {
    const plan = planTestTools(machine([fonts], { isRoot: true }));
    expect(plan).toMatchObject({ action: 'install', packages: ['chromium'] });
    expect(plan.announcement).toBe(
      'npm test: installing chromium with apt-get for the end-to-end tests (once, a minute or two)',
    );
    expect(plan.commands).toEqual([
      ['apt-get', 'update', '-qq', '-oDPkg::Lock::Timeout=300'],
      [
        'env',
        'DEBIAN_FRONTEND=noninteractive',
        'apt-get',
        'install',
        '-y',
        '-qq',
        '-oDPkg::Lock::Timeout=300',
        'chromium',
      ],
    ]);
  });

  it('installs through sudo when it asks for no password', () => {
    const plan = planTestTools(machine([], { hasPasswordlessSudo: true }));
    expect(plan.packages).toEqual(['chromium', 'fonts-noto-cjk']);
    expect(plan.commands.map((command) => command.slice(0, 3))).toEqual([
      ['sudo', '-n', 'apt-get'],
      ['sudo', '-n', 'env'],
    ]);
    expect(plan.commands[1].slice(-2)).toEqual(['chromium', 'fonts-noto-cjk']);
  });

  it('stops with the exact command when it may not install', () => {
    const plan = planTestTools(machine([chromium]));
    expect(plan).toEqual({
      action: 'stop',
      message:
        'npm test: the end-to-end tests need the Noto CJK fonts (the Chinese console). Install with\n' +
        '  sudo apt-get update && sudo apt-get install -y fonts-noto-cjk\n' +
        'and run npm test again.',
    });
  });

  it('stops and names what is missing on a machine without apt-get, even as root', () => {
    const plan = planTestTools(machine([], { hasAptGet: false, isRoot: true }));
    expect(plan.action).toBe('stop');
    expect(plan.message).toContain('Chromium (/usr/bin/chromium) and the Noto CJK fonts');
    expect(plan.message).toContain('no apt-get');
    expect(plan.message).toContain('chromium, fonts-noto-cjk');
  });
});
