import { describe, expect, it } from 'vitest';
import { readStreamTail } from './read-stream-tail';

class VendorReport extends Error {}
const halfEvent = () => {
  throw new SyntaxError('Unexpected end of JSON input');
};
const isVendorReport = (error: unknown) => error instanceof VendorReport;

describe('readStreamTail', () => {
  it('drops the half event of a cut stream', () => {
    expect(readStreamTail(halfEvent, () => false, isVendorReport)).toEqual([]);
  });

  it('throws a parse failure after the stream completed, and always the vendor report', () => {
    expect(() => readStreamTail(halfEvent, () => true, isVendorReport)).toThrow(SyntaxError);
    const report = () => {
      throw new VendorReport('overloaded');
    };
    expect(() => readStreamTail(report, () => false, isVendorReport)).toThrow(VendorReport);
  });

  it('asks whether the stream completed after reading, so the last event counts', () => {
    let isComplete = false;
    const completeThenFail = () => {
      isComplete = true;
      throw new SyntaxError('trailing garbage');
    };
    expect(() => readStreamTail(completeThenFail, () => isComplete, isVendorReport)).toThrow(SyntaxError);
  });
});
