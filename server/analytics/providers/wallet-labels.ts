/** Wallet labels and smart-money role (Nansen in production) */

export interface WalletLabelsProvider {
  /** Lowercase id reported in `sources`. */
  readonly source: string;
}
