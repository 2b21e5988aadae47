/** A confidence figure kept inside 0..1 with two decimals: how every rule states its certainty. */
export function confidence(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
}
