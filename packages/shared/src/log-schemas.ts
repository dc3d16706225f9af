import { z } from 'zod';
import { LogType } from './enums';

/** SPEC §9: an export holds at most 10 000 rows; the console's default window ends one hour from now. */
export const LOG_EXPORT_MAX_ROWS = 10_000;
export const LOG_DEFAULT_WINDOW_AFTER_NOW_SECONDS = 3600;
/** SPEC §9: log clearing defaults to 30 days back. */
export const LOG_CLEAR_DEFAULT_SECONDS = 2_592_000;

/** Query strings arrive as text; blank means "not given". */
const optionalWholeNumber = (name: string) =>
  z.preprocess(
    (value) => (value === undefined || value === null || value === '' ? undefined : Number(value)),
    z
      .number({ error: `${name} must be a whole number` })
      .int(`${name} must be a whole number`)
      .min(0, `${name} must not be negative`)
      .optional(),
  );

const optionalText = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim() : value),
  z.string().max(255).optional(),
);

const logTypes: number[] = Object.values(LogType);

/** GET /api/log/ and /api/log/self/ (and their /stat): username and channel count only for admins. */
export const logQuerySchema = z.object({
  p: optionalWholeNumber('p'),
  size: optionalWholeNumber('size'),
  num: optionalWholeNumber('num'),
  type: optionalWholeNumber('type').refine(
    (value) => value === undefined || logTypes.includes(value),
    'type must be 0 (all), 1 (top-up), 2 (consumption), 3 (management) or 4 (system)',
  ),
  username: optionalText,
  token_name: optionalText,
  model_name: optionalText,
  start_timestamp: optionalWholeNumber('start_timestamp'),
  end_timestamp: optionalWholeNumber('end_timestamp'),
  channel: optionalWholeNumber('channel'),
});
export type LogQuery = z.infer<typeof logQuerySchema>;

export const logClearQuerySchema = z.object({
  target_timestamp: z.preprocess(
    (value) => (value === undefined || value === '' ? undefined : Number(value)),
    z
      .number({ error: 'target_timestamp is required (seconds since epoch)' })
      .int('target_timestamp must be whole seconds since epoch')
      .positive('target_timestamp must be whole seconds since epoch'),
  ),
});

export interface LogStat {
  quota: number;
}
