/** Every management API answer. */
export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
}
