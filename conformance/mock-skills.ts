/**
 * The mock's A2A skills (`npm run mock` serves them at `/a2a`): the service's own A2A endpoint, tasks and task answers
 * (server/a2a/: a2a-endpoint.ts, paid-skills.ts, task-answers.ts), each call judged as the mock judges one
 * (mock-calls.ts, shared with the MCP tools): a skill's arguments checked as the service checks them (bad ones fail
 * the task before any payment is read); without a payment, the task asks for one (`x402.payment.required`); a
 * well-formed payment completes it with the operation's 200 example and a mock receipt (`simulated: true`, signed
 * with the mock's key). Tasks are kept by the rules the service's stores keep, in memory (memory-tasks.ts, held to the
 * same contract suite): the same payment again on a task gets the task it completed, and `GetTask` reads any task of
 * this process.
 */
import { a2aEndpoint } from "../server/a2a/a2a-endpoint.js";
import { paidSkills } from "../server/a2a/paid-skills.js";
import { skillResource, X402_META } from "../server/a2a/protocol.js";
import { systemClock } from "../server/analytics/clock.js";
import { memoryTasks } from "../server/analytics/tasks/memory-tasks.js";
import type { TaskStore } from "../server/analytics/tasks/task-store.js";
import { createLogger } from "../server/http/logger.js";
import type { MockCalls } from "./mock-calls.js";

/** Where a skill's payment comes, as a malformed one's error names it. */
const PAYMENT_FIELD = `message.metadata["${X402_META.payload}"]`;

/** The task store, its expired tasks dropped (once a second at most) as new ones start: a mock left running keeps no more than it must. */
function mockTasks(): TaskStore {
  const tasks = memoryTasks();
  let droppedAt = Number.NEGATIVE_INFINITY;
  return {
    ...tasks,
    async create(task) {
      if (task.createdAt - droppedAt >= 1_000) {
        droppedAt = task.createdAt;
        await tasks.dropExpired(task.createdAt);
      }
      await tasks.create(task);
    },
  };
}

/** The A2A endpoint of the mock's skills. */
export function mockSkillsEndpoint(calls: MockCalls) {
  const tools = calls.tools(skillResource);
  const logger = createLogger("silent");
  const skills = paidSkills({
    tools,
    run: async (tool, call) => calls.outcome(tool, call, PAYMENT_FIELD),
    tasks: mockTasks(),
    clock: systemClock,
    config: calls.config,
    logger,
  });
  return a2aEndpoint(skills, logger);
}
