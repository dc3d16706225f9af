/** Sends this window to another site (a provider's authorise page); its own module so tests can watch it. */
export function leaveFor(url: string): void {
  window.location.assign(url);
}
