/**
 * `incident-long`: a long investigation of a failed nightly batch run and API 503s after a
 * deploy. Filesystem over the incident's attachments (the repo's generated fixtures: the batch
 * log, an events export, an orders API page, the deploy's 105 KB CI log, the status page),
 * server-memory for the incident record, read back as it grows, and the fixture server for the
 * ingest replay's growing log and the hotfix branch's test runs.
 */
import { join } from "node:path";
import type { Session, Turn } from "../agent";
import { freshDir, upstream, worldPath } from "./world";

const NAME = "incident-long";
const FIXTURES = join(import.meta.dirname, "../../../tests/fixtures");
const at = (file: string) => worldPath(NAME, file);
const read = (file: string, lines?: { head?: number; tail?: number }) => ({ tool: "read_text_file", args: { path: at(file), ...lines } });
const graph = { tool: "read_graph", args: {} };
const note = (entityName: string, ...contents: string[]) => ({
  tool: "add_observations",
  args: { observations: [{ entityName, contents }] },
});
const replay = (lines: number) => ({ tool: "big_log", args: { lines, seed: "ingest-replay" } });
const replayFailure = (step: number) => `[ingest-replay] ERROR step ${step}: test suite ${step} failed with exit code 2`;
const run = (area?: string) => ({ tool: "run_tests", args: area ? { area } : {} });
const failing = (test: string) => [`× ${test}`, `FAIL  ${test}`];

const BATCH = "logs/nightly-batch.log";
const CI = "ci/build.log";
const ORDERS = "api/orders-page.json";
const EVENTS = "logs/events.ndjson";
const INC = "INC-2107";

const jobs = [
  ["ingest-nightly", "loads the previous day's partitions from the object store", "runs on worker-2 with an 8Gi memory limit"],
  ["report-builder", "builds the nightly reports from Postgres", "reads the primary at 10.0.3.7:5432"],
  ["thumbnailer", "renders thumbnails for new assets", "Python worker in /srv/thumbnailer"],
  ["search-indexer", "indexes the day's documents", "flushes through Indexer.flush in indexer.js"],
].map(([name, ...observations]) => ({ name: name!, entityType: "job", observations }));

const turns: Turn[] = [
  {
    question: "What did on-call attach to the incident?",
    calls: [{ tool: "directory_tree", args: { path: worldPath(NAME) } }],
    answer: ['"name": "nightly-batch.log"', '"name": "orders-page.json"', '"name": "build.log"'],
  },
  {
    question: "Which job failed in last night's batch run, and why?",
    calls: [read(BATCH)],
    answer: ["batch run finished: 3 jobs succeeded, 1 failed (ingest-nightly)", "container ingest-nightly was OOMKilled"],
    lookup: { mode: "grep", pattern: "finished|OOMKilled" },
  },
  {
    question: "Open the incident record with the batch's jobs; is it recorded?",
    calls: [
      {
        tool: "create_entities",
        args: {
          entities: [
            {
              name: INC,
              entityType: "incident",
              observations: ["nightly batch run-20240514-0200: ingest-nightly OOMKilled, exit 137 after 41m12s"],
            },
            ...jobs,
          ],
        },
      },
    ],
    answer: [`"name": "${INC}"`],
  },
  {
    question: "What did the report-builder fail on, and how often did it retry?",
    calls: [read(BATCH)],
    answer: ["connect ECONNREFUSED 10.0.3.7:5432 (postgres primary unreachable)", "retrying database connection in 10s (attempt 3 of 5)"],
    lookup: { mode: "grep", pattern: "report-builder.*(database|retrying)" },
  },
  {
    question: "Note the database refusals on the report-builder; what was recorded?",
    calls: [note("report-builder", "02:00:52 and 02:00:55: ECONNREFUSED to the postgres primary, retried (attempt 3 of 5)")],
    answer: ["02:00:52 and 02:00:55: ECONNREFUSED to the postgres primary, retried (attempt 3 of 5)"],
  },
  {
    question: "What does the status page say about the API?",
    calls: [read("status/status-page.html")],
    answer: ["Between 09:12 and 09:48 some API requests failed with HTTP 503."],
  },
  {
    question: "Which orders on the API page were refunded? Name the first, and say whether there is a next page.",
    calls: [read(ORDERS)],
    answer: ['"id": 1000,', '"status": "refunded"', '"hasMore": false'],
    lookup: { mode: "query", expression: "{hasMore: hasMore, refunded: data[?status=='refunded'].{id: id, status: status}}" },
  },
  {
    question: "Which test failed in the deploy's CI run, with which values?",
    calls: [read(CI, { tail: 700 })],
    answer: ["FAILED tests/payments/refund.test.ts › refunds a partial capture", 'Received: "4200"'],
    lookup: { mode: "grep", pattern: "FAILED|Expected|Received" },
  },
  {
    question: "Record the failing refund test on the incident; what does the record hold now?",
    calls: [note(INC, "the deploy's CI run had a failing test: refunds a partial capture (expected 4200, received the string)"), graph],
    answer: ["the deploy's CI run had a failing test: refunds a partial capture (expected 4200, received the string)"],
    lookup: { mode: "grep", pattern: "refunds a partial capture" },
  },
  {
    question: "On the hotfix branch, does the api suite show the 503 handling failing?",
    calls: [run("api")],
    answer: [failing("src/api/client.test.ts > retries on 503"), "Error: expected 2 calls to fetch, got 1"],
    lookup: { mode: "grep", pattern: "×|Error" },
  },
  {
    question: "What was the slowest event in the events export?",
    calls: [read(EVENTS)],
    answer: ['{"ts": 1715652017, "type": "purchase", "user": "u9", "latencyMs": 897, "value": 267.87}'],
    lookup: { mode: "grep", pattern: '"latencyMs": [89]\\d\\d' },
  },
  {
    question: "Replay ingest with half the batch size: where does the replay log fail first?",
    calls: [replay(400)],
    answer: [replayFailure(13)],
    lookup: { mode: "grep", pattern: "ERROR" },
  },
  {
    question: "Note the replay's first failure on ingest-nightly; what was recorded?",
    calls: [note("ingest-nightly", "replay with half the batch size still fails at step 13")],
    answer: ["replay with half the batch size still fails at step 13"],
  },
  {
    question: "The replay went on: which steps failed since?",
    calls: [replay(500)],
    answer: [replayFailure(401), replayFailure(498)],
    lookup: { mode: "grep", pattern: "ERROR step (4|5)\\d\\d:" },
  },
  {
    question: "What does the incident record say so far?",
    calls: [graph],
    answer: [
      "nightly batch run-20240514-0200: ingest-nightly OOMKilled, exit 137 after 41m12s",
      "replay with half the batch size still fails at step 13",
    ],
    lookup: { mode: "grep", pattern: "OOMKilled|replay" },
  },
  {
    question: "Run the hotfix branch's full suite: what fails?",
    calls: [run()],
    answer: [failing("src/api/client.test.ts > retries on 503"), failing("src/ledger/rounding.test.ts > rounds half-even")],
    lookup: { mode: "grep", pattern: "×" },
  },
  {
    question: "Apply the 503 retry fix: does the api suite pass?",
    calls: [{ tool: "apply_fix", args: { fix: "retry on 503" } }, run("api")],
    answer: ["Tests  81 passed (81)"],
    lookup: { mode: "grep", pattern: "Tests " },
  },
  {
    question: "Did the scheduler still upload its summary after the failure?",
    calls: [read(BATCH, { tail: 30 })],
    answer: ["summary written to s3://reports/nightly/2024-05-14.json; 0 errors in upload"],
  },
  {
    question: "How close to its limit was ingest's memory before the kill?",
    calls: [read(BATCH)],
    answer: ["memory usage at 92% of the 8Gi container limit (rss=7.4Gi)"],
    lookup: { mode: "grep", pattern: "memory" },
  },
  {
    question: "Record the memory finding; which jobs in the record mention Postgres?",
    calls: [
      note("ingest-nightly", "rss reached 7.4Gi (92% of 8Gi) two seconds before the OOM kill"),
      { tool: "search_nodes", args: { query: "Postgres" } },
    ],
    answer: ['"name": "report-builder"'],
  },
  {
    question: "How did latency look at the start of the run?",
    calls: [read(EVENTS, { head: 40 })],
    answer: ['{"ts": 1715652000, "type": "purchase", "user": "u6", "latencyMs": 20, "value": 166.76}'],
  },
  {
    question: "The replay grew again: any new failure?",
    calls: [replay(600)],
    answer: [replayFailure(595)],
    lookup: { mode: "grep", pattern: "ERROR step 5\\d\\d:" },
  },
  {
    question: "Is the largest order on the page, 1040, paid, and for how much?",
    calls: [read(ORDERS)],
    answer: ['"id": 1040', '"amount": 2195.58'],
    lookup: { mode: "query", expression: "data[?id==`1040`]" },
  },
  {
    question: "Link the incident to the jobs it hit; what was recorded?",
    calls: [
      {
        tool: "create_relations",
        args: {
          relations: [
            { from: INC, to: "ingest-nightly", relationType: "failed" },
            { from: INC, to: "report-builder", relationType: "degraded" },
          ],
        },
      },
    ],
    answer: ['"relationType": "failed"', '"relationType": "degraded"'],
  },
  {
    question: "What does the record say about the report-builder now?",
    calls: [{ tool: "open_nodes", args: { names: ["report-builder"] } }],
    answer: ["02:00:52 and 02:00:55: ECONNREFUSED to the postgres primary, retried (attempt 3 of 5)"],
  },
  {
    question: "Full suite again after the fix: what still fails?",
    calls: [run()],
    answer: [failing("src/ledger/rounding.test.ts > rounds half-even"), "✓ src/api/client.test.ts > retries on 503"],
    lookup: { mode: "grep", pattern: "×|retries on 503" },
  },
  {
    question: "Which cache key did the deploy's CI run save?",
    calls: [read(CI, { tail: 700 })],
    answer: ["Cache saved with key: node-cache-Linux-x64-npm-3f1c9a"],
    lookup: { mode: "grep", pattern: "Cache saved" },
  },
  {
    question: "Were there other errors in the batch run we have not looked at?",
    calls: [read(BATCH)],
    answer: [
      "TypeError: Cannot read properties of undefined (reading 'tokens') at Indexer.flush (indexer.js:311:27)",
      "decode.UnsupportedFormatError: cannot decode",
    ],
    lookup: { mode: "grep", pattern: "ERROR|Error:" },
  },
  {
    question: "Record the two other failures and resolve the incident; what does the record hold?",
    calls: [
      note("search-indexer", "TypeError in Indexer.flush (indexer.js:311:27) at 02:02:31"),
      note("thumbnailer", "UnsupportedFormatError on asset-88412, skipped"),
      note(INC, "resolved: ingest memory limit raised to 12Gi, api client retries once on 503"),
      graph,
    ],
    answer: [
      "resolved: ingest memory limit raised to 12Gi, api client retries once on 503",
      "TypeError in Indexer.flush (indexer.js:311:27) at 02:02:31",
    ],
    lookup: { mode: "grep", pattern: "resolved|TypeError" },
  },
  {
    question: "Write the postmortem draft; was it written?",
    calls: [
      {
        tool: "write_file",
        args: {
          path: at("postmortem.md"),
          content: `# ${INC}: nightly batch failure and API 503s\n\n- 02:00:52 report-builder: ECONNREFUSED to the postgres primary, recovered on retry\n- 02:02:11 ingest-nightly OOMKilled at 7.4Gi of 8Gi (exit 137)\n- 09:12–09:48 API 503s; the client did not retry\n\nFixes: ingest limit 12Gi; the api client retries once on 503.\n`,
        },
      },
    ],
    answer: [`Successfully wrote to ${at("postmortem.md")}`],
  },
  {
    question: "Read the draft back: is the OOM line right?",
    calls: [read("postmortem.md")],
    answer: ["- 02:02:11 ingest-nightly OOMKilled at 7.4Gi of 8Gi (exit 137)"],
  },
  {
    question: "Last look before closing: did the scheduler's summary upload stay clean?",
    calls: [read(BATCH, { tail: 30 })],
    answer: ["summary written to s3://reports/nightly/2024-05-14.json; 0 errors in upload"],
  },
];

export const incidentLong: Session = {
  name: NAME,
  description: "filesystem over incident attachments + memory + fixture: a long investigation, re-checking logs and the record",
  async setup() {
    const dir = freshDir(NAME, {
      [BATCH]: join(FIXTURES, "fetch/nightly-batch.log"),
      [EVENTS]: join(FIXTURES, "fetch/events.ndjson"),
      [ORDERS]: join(FIXTURES, "fetch/orders-page.json"),
      [CI]: join(FIXTURES, "log/build.log"),
      "status/status-page.html": join(FIXTURES, "fetch/status-page.html"),
    });
    return {
      servers: { fs: upstream.filesystem(dir.path), memory: upstream.memory(at("memory.jsonl")), fx: upstream.fixture() },
      cleanup: dir.cleanup,
    };
  },
  turns,
};
