import { describe, expect, it } from "vitest";
import { loadAnalyticsContract } from "../analytics/contract/analytics-contract.js";
import { ConfigError, loadAnalyticsConfig } from "./analytics.js";

const defaults = loadAnalyticsContract().developmentDefaults;
const real = {
  PAY_TO_EVM: "0x1111111111111111111111111111111111111111",
  PAY_TO_SOLANA: "So11111111111111111111111111111111111111112",
  TREASURY_EVM: "0x2222222222222222222222222222222222222222",
  TREASURY_SOLANA: "9Lxm71TpvpQEiQy3TekLZM98ukgPHYMmVuyqr9vMuRp8",
  SOLANA_FEE_PAYER: "J9Pd8fXB12ipb8dqRuQPpPXbd3V8mrLJwrN54HARLa6g",
  PUBLIC_BASE_URL: "https://api.example.com",
  ALLOW_SIMULATED_SETTLEMENT: "true",
};

describe("loadAnalyticsConfig", () => {
  it("runs on the testnet profile with the contract's development addresses when nothing is set", () => {
    const config = loadAnalyticsConfig({}, defaults);
    expect(config).toMatchObject({
      profile: "testnet",
      payTo: { evm: defaults.evm.payTo, svm: defaults.svm.payTo },
      feePayer: defaults.svm.feePayer,
      maxTimeoutSeconds: 60,
    });
    expect(config.validateResponses).toBe(true);
    expect(config.insight.baseUrl).toBeUndefined();
  });

  it("turns response validation off in production unless asked", () => {
    expect(loadAnalyticsConfig({ NODE_ENV: "production" }, defaults).validateResponses).toBe(false);
    expect(
      loadAnalyticsConfig({ NODE_ENV: "production", VALIDATE_RESPONSES: "true" }, defaults).validateResponses,
    ).toBe(true);
  });

  it("refuses the mainnet profile with development addresses, naming each variable to set", () => {
    expect(() => loadAnalyticsConfig({ X402_PROFILE: "mainnet" }, defaults)).toThrow(
      /PAY_TO_EVM, PAY_TO_SOLANA, TREASURY_EVM, TREASURY_SOLANA, SOLANA_FEE_PAYER/,
    );
    expect(loadAnalyticsConfig({ X402_PROFILE: "mainnet", ...real }, defaults).payTo.evm).toBe(real.PAY_TO_EVM);
  });

  it("refuses the development addresses on mainnet in any spelling, and the zero addresses", () => {
    const lower = { PAY_TO_EVM: defaults.evm.payTo.toLowerCase(), TREASURY_EVM: defaults.evm.treasury.toLowerCase() };
    expect(() => loadAnalyticsConfig({ X402_PROFILE: "mainnet", ...real, ...lower }, defaults)).toThrow(
      /set PAY_TO_EVM, TREASURY_EVM$/,
    );
    const zero = { PAY_TO_EVM: `0x${"0".repeat(40)}`, PAY_TO_SOLANA: "11111111111111111111111111111111" };
    expect(() => loadAnalyticsConfig({ X402_PROFILE: "mainnet", ...real, ...zero }, defaults)).toThrow(
      /set PAY_TO_EVM, PAY_TO_SOLANA$/,
    );
  });

  it("refuses local-chain settlement on mainnet: it moves no real money", () => {
    expect(() =>
      loadAnalyticsConfig({ X402_PROFILE: "mainnet", ...real, SETTLEMENT: "local-chain" }, defaults),
    ).toThrow(/SETTLEMENT=local-chain would settle on an in-process test chain/);
  });

  it("does not ask for a fee payer on mainnet when a facilitator supplies it", () => {
    const { SOLANA_FEE_PAYER: _, ...rest } = real;
    const facilitator = { SETTLEMENT: "facilitator", FACILITATOR_URL: "https://facilitator.example.com" };
    expect(() => loadAnalyticsConfig({ X402_PROFILE: "mainnet", ...facilitator, ...rest }, defaults)).not.toThrow();
    expect(() => loadAnalyticsConfig({ X402_PROFILE: "mainnet", ...rest }, defaults)).toThrow(/SOLANA_FEE_PAYER/);
  });

  it("rejects values that cannot work", () => {
    expect(() => loadAnalyticsConfig({ X402_PROFILE: "prod" }, defaults)).toThrow(ConfigError);
    expect(() => loadAnalyticsConfig({ X402_MAX_TIMEOUT_SECONDS: "5" }, defaults)).toThrow(/at least 6/);
    expect(() => loadAnalyticsConfig({ INSIGHT_ATTEMPTS: "0" }, defaults)).toThrow(/INSIGHT_ATTEMPTS/);
    expect(() => loadAnalyticsConfig({ INSIGHT_TIMEOUT_MS: "soon" }, defaults)).toThrow(/INSIGHT_TIMEOUT_MS/);
    // longer than a Node.js timer can wait: it would fire at once
    expect(() => loadAnalyticsConfig({ RECOVERY_INTERVAL_MS: "99999999999" }, defaults)).toThrow(
      'RECOVERY_INTERVAL_MS must be a positive integer up to 2147483647, got "99999999999"',
    );
    expect(loadAnalyticsConfig({ INSIGHT_TIMEOUT_MS: "2147483647" }, defaults).insight.timeoutMs).toBe(2_147_483_647);
    expect(() => loadAnalyticsConfig({ PORT: "0" }, defaults)).toThrow(/PORT must be a port number from 1 to 65535/);
  });

  it("refuses a URL with credentials, and a base URL with a query, without echoing either", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { INSIGHT_BASE_URL: "http://user:sk-secret@127.0.0.1:11434/v1" },
        /INSIGHT_BASE_URL must not carry a user name or password/,
      ],
      [
        { SETTLEMENT: "facilitator", FACILITATOR_URL: "https://facilitator.example.com/?apikey=QS123" },
        /FACILITATOR_URL must not carry a query or fragment/,
      ],
    ];
    for (const [env, message] of cases) {
      const error = (() => {
        try {
          loadAnalyticsConfig(env, defaults);
        } catch (thrown) {
          return thrown as Error;
        }
      })();
      expect(error?.message).toMatch(message);
      expect(error?.message).not.toMatch(/secret|QS123/);
    }
  });

  it("reads the insight model and the public origin without trailing slashes", () => {
    const config = loadAnalyticsConfig(
      {
        INSIGHT_BASE_URL: "http://localhost:11434/v1/",
        INSIGHT_MODEL: "llama3.1",
        PUBLIC_BASE_URL: "https://api.example.com/",
      },
      defaults,
    );
    expect(config.insight).toMatchObject({ baseUrl: "http://localhost:11434/v1", model: "llama3.1" });
    expect(config.publicBaseUrl).toBe("https://api.example.com");
    expect(loadAnalyticsConfig({ PUBLIC_BASE_URL: "https://example.com/api/" }, defaults).publicBaseUrl).toBe(
      "https://example.com/api",
    );
  });

  it("needs PUBLIC_BASE_URL on mainnet, and refuses one that is not an http(s) origin", () => {
    const { PUBLIC_BASE_URL: _, ...rest } = real;
    expect(() => loadAnalyticsConfig({ X402_PROFILE: "mainnet", ...rest }, defaults)).toThrow(/PUBLIC_BASE_URL/);
    for (const bad of [
      "api.example.com",
      "javascript://evil.example/x",
      "https://api.example.com/?next=evil",
      "https://u:p@api.example.com",
    ])
      expect(() => loadAnalyticsConfig({ PUBLIC_BASE_URL: bad }, defaults), bad).toThrow(/PUBLIC_BASE_URL/);
  });

  it("trusts no proxy by default, and the proxies TRUST_PROXY names", () => {
    expect(loadAnalyticsConfig({}, defaults).trustProxy).toBe(false);
    expect(loadAnalyticsConfig({ TRUST_PROXY: "2" }, defaults).trustProxy).toBe(2);
    expect(loadAnalyticsConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8" }, defaults).trustProxy).toBe(
      "loopback,10.0.0.0/8",
    );
    expect(() => loadAnalyticsConfig({ TRUST_PROXY: "true" }, defaults)).toThrow(/TRUST_PROXY/);
    expect(() => loadAnalyticsConfig({ TRUST_PROXY: "everyone" }, defaults)).toThrow(/TRUST_PROXY/);
    // shaped like addresses, but none: they failed only when Express compiled them, with a line that named no variable
    for (const bad of ["cafe", "999.1.1.1", "10.0.0.0/99", "::1/129"])
      expect(() => loadAnalyticsConfig({ TRUST_PROXY: bad }, defaults), bad).toThrow(/TRUST_PROXY/);
    expect(loadAnalyticsConfig({ TRUST_PROXY: "::1/128, 192.168.0.1" }, defaults).trustProxy).toBe(
      "::1/128,192.168.0.1",
    );
  });

  it("refuses simulated settlement on mainnet unless allowed, and then carries a warning", () => {
    const { ALLOW_SIMULATED_SETTLEMENT: _, ...rest } = real;
    expect(() => loadAnalyticsConfig({ X402_PROFILE: "mainnet", ...rest }, defaults)).toThrow(
      /ALLOW_SIMULATED_SETTLEMENT=true/,
    );
    expect(loadAnalyticsConfig({ X402_PROFILE: "mainnet", ...real }, defaults).warnings).toEqual([
      "settlement is simulated (SETTLEMENT=ledger) on the mainnet profile: paid answers are given away",
      "RECEIPT_SIGNING_KEY is not set: v2 challenges carry no signed offers and v2 answers no signed receipts",
    ]);
    expect(loadAnalyticsConfig({}, defaults).warnings).toEqual([]);
  });

  it("checks every address by format: EVM hex with a valid checksum when mixed case, Solana base58 of 32 bytes", () => {
    expect(loadAnalyticsConfig({ PAY_TO_EVM: "0xbab484b2daafab4bf6ed642a847517d33d106535" }, defaults).payTo.evm).toBe(
      "0xbab484b2daafab4bf6ed642a847517d33d106535",
    );
    expect(() => loadAnalyticsConfig({ PAY_TO_EVM: "0x123" }, defaults)).toThrow(/PAY_TO_EVM must be an EVM address/);
    expect(() => loadAnalyticsConfig({ TREASURY_EVM: "0xBAb484B2daAFAb4BF6eD642A847517d33d106535" }, defaults)).toThrow(
      /EIP-55/,
    );
    expect(() => loadAnalyticsConfig({ SOLANA_FEE_PAYER: "not-base58!" }, defaults)).toThrow(
      /SOLANA_FEE_PAYER must be a Solana address/,
    );
  });

  it("reads the paid answer's deadline and the recovery interval", () => {
    expect(loadAnalyticsConfig({}, defaults).payments).toMatchObject({
      answerTimeoutMs: 30_000,
      recoveryIntervalMs: 5_000,
    });
    expect(
      loadAnalyticsConfig({ PAID_ANSWER_TIMEOUT_MS: "2000", RECOVERY_INTERVAL_MS: "500" }, defaults).payments,
    ).toMatchObject({
      answerTimeoutMs: 2000,
      recoveryIntervalMs: 500,
    });
    expect(() => loadAnalyticsConfig({ PAID_ANSWER_TIMEOUT_MS: "-1" }, defaults)).toThrow(/PAID_ANSWER_TIMEOUT_MS/);
  });

  it("reads whether a payment identifier is required, and how long its answer is kept", () => {
    expect(loadAnalyticsConfig({}, defaults).payments.paymentIdentifier).toEqual({
      required: false,
      retentionMs: 86_400_000,
    });
    const set = { PAYMENT_IDENTIFIER_REQUIRED: "true", PAYMENT_IDENTIFIER_RETENTION_SECONDS: "600" };
    expect(loadAnalyticsConfig(set, defaults).payments.paymentIdentifier).toEqual({
      required: true,
      retentionMs: 600_000,
    });
    expect(() => loadAnalyticsConfig({ PAYMENT_IDENTIFIER_REQUIRED: "yes" }, defaults)).toThrow(
      /PAYMENT_IDENTIFIER_REQUIRED/,
    );
    expect(() => loadAnalyticsConfig({ PAYMENT_IDENTIFIER_RETENTION_SECONDS: "0" }, defaults)).toThrow(
      /PAYMENT_IDENTIFIER_RETENTION_SECONDS/,
    );
  });
});
