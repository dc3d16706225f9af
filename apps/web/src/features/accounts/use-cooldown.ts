import { useCallback, useEffect, useState } from 'react';
import { VERIFICATION_RESEND_COOLDOWN_SECONDS } from '@gatehouse/shared';

export interface Cooldown {
  /** whole seconds left, 0 when the button may be used again */
  remaining: number;
  isCoolingDown: boolean;
  start: () => void;
}

/**
 * Verification and reset buttons wait 30 s before they can send again. Counted from the clock, not
 * from ticks, so a throttled background tab still ends on time.
 */
export function useCooldown(seconds = VERIFICATION_RESEND_COOLDOWN_SECONDS): Cooldown {
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (endsAt === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= endsAt) setEndsAt(null);
    }, 1000);
    return () => clearInterval(timer);
  }, [endsAt]);

  const start = useCallback(() => {
    const current = Date.now();
    setNow(current);
    setEndsAt(current + seconds * 1000);
  }, [seconds]);

  const remaining = endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000));
  return { remaining, isCoolingDown: remaining > 0, start };
}
