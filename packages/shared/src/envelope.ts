/** Every management API answer (SPEC §1). */
export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
}
