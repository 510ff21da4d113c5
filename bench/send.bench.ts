/**
 * `POST /api/send` throughput at 10 connections (issue 7, case 4): MailPulse on Fastify with the
 * memory provider, and with a loopback SMTP server, against a bare Fastify route that parses the
 * same JSON body. Every request sends the 19 KB newsletter fixture to one recipient.
 *
 * The three contenders run interleaved (BENCH_REPS rounds), each a fresh server process on the
 * server core on a fresh copy of a SQLite file holding one organization and its API key; the SMTP
 * sink runs on the load core. After each MailPulse run the `sent` emails in the database (and the
 * messages the sink accepted) are compared with the 200s the load generator read.
 *
 * Run: npm run bench:send
 */
import { count, duration, ratio } from "./lib/format.js";
import { type Contender, interleave } from "./lib/interleave.js";
import { isMain } from "./lib/is-main.js";
import { currentLoad, printMachine } from "./lib/machine.js";
import { readBenchSettings } from "./lib/settings.js";
import { createTempFolder } from "./lib/temp-folder.js";
import { describeResult } from "./load/describe-result.js";
import { chooseLoadGenerator } from "./load/load-generator.js";
import type { LoadResult, LoadSpec } from "./load/load-spec.js";
import { sendBody } from "./send/send-body.js";
import { startSmtpSink } from "./send/start-smtp-sink.js";
import type { StorageConfig } from "./server/config.js";
import { answeredIn, type MeasuredRun, measuredRun } from "./server/measured-run.js";
import { scalarQuery } from "./server/scalar-query.js";
import { seedSqliteDatabase } from "./tracking/bench-database.js";

/** One contender's medians; `ratio` is over the bare route's req/s. */
export interface SendRow {
  contender: string;
  requestsPerSecond: number;
  p99Ms: number;
  ratio: number;
  /** `ok` when every answered send is stored as sent (and reached the SMTP sink). */
  check: string;
}

type SendRun = LoadResult & { check?: string };

const connections = 10;

const sentEmails = (storage: StorageConfig) =>
  scalarQuery(storage, "select count(*) from {mailpulse_email} where status = 'sent'");

/** Answered sends must each be stored as sent (and delivered); in-flight ones may add a few. */
function checkSends(run: MeasuredRun, sent: number, delivered: number | undefined): string {
  const answered = answeredIn(run);
  const problems: string[] = [];
  if (sent < answered) problems.push(`${count(answered - sent)} answered sends not stored as sent`);
  if (sent > answered + run.maxInFlight) problems.push(`${count(sent - answered)} more sent than answered`);
  if (delivered !== undefined && delivered < answered) {
    problems.push(`${count(answered - delivered)} answered sends never reached the SMTP server`);
  }
  const deliveredText = delivered === undefined ? "" : `, SMTP sink received ${count(delivered)}`;
  return `answered ${count(answered)}, stored as sent ${count(sent)}${deliveredText}: ${problems.join("; ") || "ok"}`;
}

/** Runs the send comparison; logs progress and the table through `log`. */
export async function run(log: (line: string) => void = console.log): Promise<SendRow[]> {
  const settings = readBenchSettings();
  const folder = createTempFolder();
  try {
    const load = chooseLoadGenerator(settings, folder);
    const database = await seedSqliteDatabase(folder, 0);
    const spec: Omit<LoadSpec, "origin"> = {
      paths: ["/api/send"],
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": database.seeded.apiKey },
      body: sendBody(),
      connections,
      durationSeconds: settings.durationSeconds,
    };
    log(
      `load generator: ${load.name}, ${connections} connections, ${settings.repetitions} interleaved ` +
        `repetitions of ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured; ` +
        `body ${count(Buffer.byteLength(spec.body ?? ""))} bytes${currentLoad()}`,
    );

    const mailpulseRun = async (smtp: boolean): Promise<SendRun> => {
      const storage = database.forRun();
      const before = await sentEmails(storage);
      const sink = smtp ? await startSmtpSink() : undefined;
      let measured: MeasuredRun;
      let delivered: number | undefined;
      try {
        const config = { framework: "fastify", variant: "mailpulse", storage, smtpUrl: sink?.url } as const;
        measured = await measuredRun(config, spec, settings, load);
      } finally {
        // The server closed its SMTP pool on stop, so the sink's count is final.
        delivered = await sink?.stop();
      }
      const sent = (await sentEmails(storage)) - before;
      return { ...measured.measured, check: checkSends(measured, sent, delivered) };
    };
    const contenders: Contender<SendRun>[] = [
      {
        name: "bare Fastify (parse JSON)",
        run: async () =>
          (await measuredRun({ framework: "fastify", variant: "bare" }, spec, settings, load)).measured,
      },
      { name: "MailPulse, memory provider", run: () => mailpulseRun(false) },
      { name: "MailPulse, SMTP (loopback)", run: () => mailpulseRun(true) },
    ];
    const results = await interleave(contenders, settings.repetitions, (contender, repetition, result) => {
      log(
        `   ${repetition}. ${contender}: ${describeResult(result)}${result.check ? `; ${result.check}` : ""}`,
      );
    });
    const baseline = results[0]!.medianRequestsPerSecond;
    const rows = results.map((result) => ({
      contender: result.name,
      requestsPerSecond: result.medianRequestsPerSecond,
      p99Ms: result.medianP99Ms,
      ratio: result.medianRequestsPerSecond / baseline,
      check:
        result.runs
          .map((run) => run.check)
          .filter((check) => check !== undefined && !check.endsWith(": ok"))
          .join("; ") || (result.runs[0]?.check === undefined ? "-" : "ok"),
    }));
    log(
      `\nPOST /api/send at ${connections} connections, medians of ${settings.repetitions} runs (${load.name})`,
    );
    console.table(
      rows.map((row) => ({
        contender: row.contender,
        "req/s": count(row.requestsPerSecond),
        p99: duration(row.p99Ms),
        "ratio to bare": ratio(row.ratio),
        "sent = answered": row.check,
      })),
    );
    return rows;
  } finally {
    folder.remove();
  }
}

if (isMain(import.meta.url)) {
  printMachine();
  await run();
}
