/** Every paid operation's handler, keyed by operation name. The app refuses to start if one is missing. */
import { askHandlers } from "./ask.js";
import { bridgeHandlers } from "./bridge.js";
import { defiHandlers } from "./defi.js";
import { lpHandlers } from "./lp.js";
import { smartmoneyHandlers } from "./smartmoney.js";
import { tradersHandlers } from "./traders.js";
import { trenchesHandlers } from "./trenches.js";
import type { HandlerMap } from "./types.js";

export const handlers: HandlerMap = {
  ...defiHandlers,
  ...lpHandlers,
  ...trenchesHandlers,
  ...tradersHandlers,
  ...bridgeHandlers,
  ...smartmoneyHandlers,
  ...askHandlers,
};
