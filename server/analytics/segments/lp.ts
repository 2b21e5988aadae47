/** lp segment handlers (to be written). */
import type { OperationName } from "../operation-types.js";
import type { Handler } from "./types.js";

export const lpHandlers: Partial<{ [N in OperationName]: Handler<N> }> = {};
