import { UpstreamReportedError, type UpstreamErrorDetails } from '../../canonical/translation';
import { mapSparkErrorCode } from './map-spark-error-code';
import { SPARK } from './spark-wire-types';

/**
 * Spark sent an error frame (header.code ≠ 0) where an answer was expected. The relay treats it like an
 * error answer of its kind.
 */
export class SparkReportedError extends UpstreamReportedError {
  constructor(details: UpstreamErrorDetails) {
    super(SPARK, details);
  }

  static of(code: number, message: string | undefined, sid = ''): SparkReportedError {
    return new SparkReportedError({
      message: `${message || 'unknown error'}${sid ? ` (sid ${sid})` : ''}`,
      type: 'spark_error',
      code: String(code),
      kind: mapSparkErrorCode(code),
    });
  }
}
