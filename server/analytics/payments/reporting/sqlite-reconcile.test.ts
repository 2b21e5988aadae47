import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeReconcile } from "../../../../test/contracts/reconcile.js";
import { openSqliteLedger } from "../ledger/sqlite-ledger.js";

describeReconcile("SQLite", async () => openSqliteLedger(join(mkdtempSync(join(tmpdir(), "reconcile-")), "ledger.db")));
