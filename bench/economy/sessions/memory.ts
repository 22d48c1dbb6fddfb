/**
 * A knowledge-graph session over @modelcontextprotocol/server-memory: an agent records a team,
 * its services and incidents, and reads the growing graph back between updates.
 */
import type { Session } from "../agent";
import { freshDir, upstream, worldPath } from "./world";

const PEOPLE = [
  "Alice Moreau",
  "Bruno Keller",
  "Chiara Rossi",
  "Dmitri Volkov",
  "Esther Cohen",
  "Farid Haddad",
  "Greta Lind",
  "Hiro Tanaka",
  "Ines Duarte",
  "Jonas Berg",
  "Kemi Adeyemi",
  "Lucia Ortega",
];
const TEAMS = ["payments", "platform", "search", "mobile"];
const SERVICES = [
  "ledger-service",
  "payments-api",
  "search-indexer",
  "notification-hub",
  "auth-gateway",
  "report-builder",
  "mobile-bff",
  "billing-cron",
  "fraud-scorer",
  "export-worker",
  "config-store",
  "audit-log",
];
const STORES = ["Postgres 15", "Redis 7", "Elasticsearch 8", "Kafka 3.6", "S3"];

const person = (name: string, i: number) => ({
  name,
  entityType: "person",
  observations: [
    `works on the ${TEAMS[i % 4]} team since ${2018 + (i % 6)}`,
    `based in ${["Lyon", "Zurich", "Milan", "Tallinn", "Haifa", "Beirut", "Malmö", "Osaka", "Porto", "Oslo", "Lagos", "Sevilla"][i]}`,
    `prefers ${i % 2 ? "async written updates" : "short video calls"} for reviews`,
    `on call every ${["first", "second", "third", "fourth"][i % 4]} week of the month`,
    `knows the ${SERVICES[i]} code base best`,
    `mentors ${PEOPLE[(i + 5) % 12]} on ${["incident reviews", "API design", "SQL tuning", "release planning"][i % 4]}`,
    `last performance review in ${["March", "June", "September", "December"][i % 4]} ${2025 - (i % 2)}`,
  ],
});
const service = (name: string, i: number) => ({
  name,
  entityType: "service",
  observations: [
    `stores its data in ${STORES[i % 5]}`,
    `p99 latency budget is ${120 + i * 15} ms`,
    `deployed ${i % 3 ? "twice a week" : "daily"} from the ${TEAMS[i % 4]} pipeline`,
    `runbook at https://runbooks.example.com/${name}`,
    `dashboards at https://grafana.example.com/d/${name}-overview`,
    `pages the #${TEAMS[i % 4]}-oncall channel when its error rate passes ${(0.5 + (i % 4) * 0.25).toFixed(2)} %`,
  ],
});
const incident = (n: number, i: number) => ({
  name: `INC-${n}`,
  entityType: "incident",
  observations: [
    `${SERVICES[(i * 5) % 12]} degraded for ${20 + i * 7} minutes`,
    `root cause: ${["expired TLS certificate", "connection pool exhaustion", "bad feature flag", "disk full on a broker", "slow query after an index drop", "retry storm from mobile clients"][i]}`,
    `follow-up owner: ${PEOPLE[(i * 3 + 1) % 12]}`,
  ],
});
const relations = SERVICES.map((s, i) => ({ from: PEOPLE[i]!, to: s, relationType: i % 3 === 0 ? "owns" : "maintains" })).concat(
  SERVICES.slice(0, 8).map((s, i) => ({ from: s, to: SERVICES[(i + 3) % 12]!, relationType: "calls" })),
);

const graph = { tool: "read_graph", args: {} };

export const knowledgeGraph: Session = {
  name: "knowledge-graph",
  description: "memory: build a team/service/incident graph and read it back as it grows",
  async setup() {
    const dir = freshDir("knowledge-graph");
    return { servers: { memory: upstream.memory(worldPath("knowledge-graph", "memory.jsonl")) }, cleanup: dir.cleanup };
  },
  turns: [
    {
      question: "Record the team. Where is Hiro Tanaka based?",
      calls: [{ tool: "create_entities", args: { entities: PEOPLE.map(person) } }],
      answer: ['"based in Osaka"'],
    },
    {
      question: "Record the services. Where does the fraud-scorer store its data?",
      calls: [{ tool: "create_entities", args: { entities: SERVICES.map(service) } }],
      answer: ['"name": "fraud-scorer"', '"stores its data in Kafka 3.6"'],
    },
    {
      question: "Record who owns what. Who owns the ledger service?",
      calls: [{ tool: "create_relations", args: { relations } }],
      answer: ['"from": "Alice Moreau",\n    "to": "ledger-service",\n    "relationType": "owns"'],
    },
    {
      question: "What is the latency budget of the search-indexer?",
      calls: [graph],
      answer: ['"p99 latency budget is 150 ms"'],
      lookup: { mode: "chain", pattern: '"name": "search-indexer"', context: 6 },
    },
    {
      question: "Alice moved teams: record it. What does the graph now say about her team?",
      calls: [
        {
          tool: "add_observations",
          args: { observations: [{ entityName: "Alice Moreau", contents: ["moved to the platform team in May 2026"] }] },
        },
        graph,
      ],
      answer: ['"moved to the platform team in May 2026"'],
      lookup: { mode: "grep", pattern: "moved to" },
    },
    {
      question: "Which nodes mention Redis?",
      calls: [{ tool: "search_nodes", args: { query: "Redis" } }],
      answer: ['"name": "payments-api"', '"name": "mobile-bff"', '"name": "audit-log"'],
    },
    {
      question: "Record the recent incidents. What was the root cause of INC-2043?",
      calls: [{ tool: "create_entities", args: { entities: [2041, 2042, 2043, 2044, 2045, 2046].map(incident) } }, graph],
      answer: ['"root cause: bad feature flag"'],
      lookup: { mode: "chain", pattern: '"name": "INC-2043"', context: 6 },
    },
    {
      question: "Who follows up on INC-2045?",
      calls: [{ tool: "open_nodes", args: { names: ["INC-2045", "INC-2046"] } }],
      answer: ['"follow-up owner: Bruno Keller"'],
    },
    {
      question: "Which services does the payments-api call?",
      calls: [graph],
      answer: ['"from": "payments-api",\n      "to": "auth-gateway",\n      "relationType": "calls"'],
      lookup: { mode: "chain", pattern: '"from": "payments-api"', context: 3 },
    },
    {
      question: "The ledger moved to Postgres 16: record it. What does the graph say now?",
      calls: [
        {
          tool: "add_observations",
          args: { observations: [{ entityName: "ledger-service", contents: ["migrated to Postgres 16 on 2026-06-02"] }] },
        },
        graph,
      ],
      answer: ['"migrated to Postgres 16 on 2026-06-02"'],
      lookup: { mode: "grep", pattern: "Postgres 16" },
    },
  ],
};
