/** Launch feed role (PumpPortal in production) and the second launchpad (Raydium LaunchLab) */

export interface LaunchProvider {
  /** Lowercase id reported in `sources`. */
  readonly source: string;
}
