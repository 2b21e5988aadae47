import { describeTaskContract } from "../../../test/contracts/tasks.js";
import { memoryTasks } from "./memory-tasks.js";

describeTaskContract("memory", async () => ({ tasks: memoryTasks(), close: async () => {} }));
