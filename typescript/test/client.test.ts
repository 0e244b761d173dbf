// The runtime client against the mock service: outcomes, retries only where safe, per-call
// options, paging, waiting, and the key kept out of every output.
import assert from "node:assert/strict";
import { test } from "node:test";
import { inspect } from "node:util";
import {
  ApiError,
  CallTimeout,
  ConfigError,
  Decimal,
  InvalidRequest,
  MockService,
  type Operation,
  OutcomeUnknown,
  PrivateKey,
  RuntimeClient,
  SignatureInvalid,
  WaitDeadline,
  type Config,
  type Fetch,
  type JsonObject,
  type Paging,
  type RecordShape,
  FieldPath,
  JsonNumber,
  Validator,
  validateRecord,
} from "../src/index.js";

const key = new PrivateKey("partner-secret-key");

interface BalanceReq {
  readonly accountId: string;
  readonly amount?: string;
}
interface BalanceRes {
  readonly balance?: string;
  readonly count?: number;
}

const query: Operation<BalanceReq, BalanceRes> = {
  name: "getBalance",
  path: "/query/getBalance",
  movesMoney: false,
  params: {
    name: "GetBalanceRequest",
    fields: [
      { wire: "accountId", ty: { k: "string" }, required: true, checks: [["max_chars", 10]] },
      { wire: "amount", ty: { k: "decimal", wire: "string" }, required: false, checks: [["decimal_places", 2], ["positive_amount"]] },
    ],
  },
  response: {
    k: "record",
    record: () => ({ name: "R", fields: [{ wire: "balance", ty: { k: "decimal", wire: "string" }, required: false }, { wire: "count", ty: { k: "int" }, required: false }] }),
  },
};
const transfer: Operation<BalanceReq, BalanceRes> = { ...query, name: "transfer", path: "/trans/transfer", movesMoney: true };

function client(mock: MockService, extra: Partial<Config> = {}, retryable: string[] = ["19999"]): RuntimeClient {
  return new RuntimeClient({ baseUrl: "https://bank.example", sender: "partner", privateKey: key, fetch: mock.fetch, retryBackoffMs: 1, ...extra }, retryable);
}

test("a call is validated, signed, verified and read; numbers keep their text", async () => {
  const mock = new MockService(key).on(query, (p) => ({ balance: "100.50", count: 3, echo: p["accountId"] ?? "" }));
  const success = await client(mock).executeWith(query, { accountId: "A1" }, { requestId: "partnerFIXED1" });
  assert.deepEqual({ ...success.data }, { balance: "100.50", count: 3 });
  assert.equal(success.requestId, "partnerFIXED1");
  assert.equal(success.attempts, 1);
  assert.equal(mock.requests.length, 1);
  assert.equal(mock.requests[0]?.params["accountId"], "A1");
});

test("an integer the field's type cannot hold exactly is refused, not rounded", async () => {
  const mock = new MockService(key).on(query, () => ({ count: new JsonNumber("3000000000") }));
  await assert.rejects(client(mock).execute(query, { accountId: "A" }), (e: unknown) => e instanceof Error && e.name === "DecodeError");
  const text = new MockService(key).on(query, () => ({ count: "12" }));
  assert.equal((await client(text).execute(query, { accountId: "A" })).count, 12, "digits as text read as the integer");
});

test("rules are checked before anything is sent, every violation named", async () => {
  const mock = new MockService(key).on(query, () => ({}));
  await assert.rejects(
    client(mock).execute(query, { accountId: "x".repeat(11), amount: "0.001" }),
    (e: unknown) =>
      e instanceof InvalidRequest &&
      e.outcome === "not_sent" &&
      JSON.stringify(e.violations.map((v) => [v.field, v.rule])) ===
        JSON.stringify([["accountId", "max_chars"], ["amount", "decimal_places"]]),
  );
  await assert.rejects(
    client(mock).execute(query, { accountId: "A", amount: 10 as unknown as string, extra: 1 } as BalanceReq),
    (e: unknown) => e instanceof InvalidRequest && e.violations.map((v) => v.rule).join() === "type,type",
  );
  const named: Operation<{ readonly name: string }, BalanceRes> = {
    name: "named",
    path: query.path,
    movesMoney: false,
    response: query.response,
    params: { name: "N", fields: [{ wire: "name", ty: { k: "string" }, required: true, checks: [["min_chars", 2]] }] },
  };
  await assert.rejects(
    client(mock).execute(named, { name: "" }),
    (e: unknown) => e instanceof InvalidRequest && e.violations.map((v) => v.rule).join() === "required,min_chars",
  );
  assert.equal(mock.requests.length, 0);
});

test("every rule check runs on the value its type gives; a check on a value of another type is an error, never skipped", () => {
  const shape: RecordShape = {
    name: "T",
    fields: [
      { wire: "name", ty: { k: "string" }, required: true, checks: [["max_chars", 3], ["min_chars", 1], ["alphanumeric"], ["base64_max_bytes", 1]] },
      { wire: "n", ty: { k: "int" }, required: true, checks: [["range_int", 1, 5], ["positive_int"]] },
      { wire: "amount", ty: { k: "decimal", wire: "string" }, required: true, checks: [["range_amount", "1", null], ["positive_amount"], ["whole"], ["decimal_places", 0]] },
      { wire: "list", ty: { k: "array", item: { k: "int" } }, required: true, arrayChecks: [["max_items", 1], ["min_items", 1]] },
      { wire: "ccy", ty: { k: "enum", name: "Currency", wire: "string", values: ["KES", "CNY"], open: true }, required: true, checks: [["one_of", ["KES"]]] },
      { wire: "other", ty: { k: "enum", name: "Currency", wire: "string", values: ["KES", "CNY"], open: true }, required: true, checks: [["one_of", ["KES", "XAF"]]] },
      { wire: "closed", ty: { k: "enum", name: "Kind", wire: "string", values: ["1", "2"] }, required: true, checks: [["one_of", ["1"]]] },
    ],
  };
  const v = new Validator();
  validateRecord(v, shape, { name: "a-bcd", n: -9, amount: "-0.5", list: [1, 2], ccy: "CNY", other: "XAF", closed: "2" }, FieldPath.ROOT);
  assert.deepEqual(
    v.violations.map((x) => `${x.field}:${x.rule}`),
    ["name:max_chars", "name:alphanumeric", "name:base64", "n:range", "n:positive", "amount:range", "amount:positive", "amount:whole", "amount:decimal_places", "list:max_items", "ccy:one_of", "closed:one_of"],
  );
  // A closed set refuses a value it does not list by its type; an open one takes it (the code above passed).
  const closed = new Validator();
  validateRecord(closed, { name: "C", fields: [shape.fields[6]!] }, { closed: "XAF" }, FieldPath.ROOT);
  assert.deepEqual(closed.violations.map((x) => `${x.field}:${x.rule}`), ["closed:type"]);
  const wrong: RecordShape = { name: "W", fields: [{ wire: "n", ty: { k: "int" }, required: true, checks: [["max_chars", 2]] }] };
  assert.throws(() => validateRecord(new Validator(), wrong, { n: 1 }, FieldPath.ROOT), /max_chars applies to text/u);
});

test("a signed refusal is refused and typed; a retryable code is retried on a query only", async () => {
  let calls = 0;
  const mock = new MockService(key)
    .on(query, () => (++calls < 2 ? { refuse: "19999", msg: "busy" } : { balance: "1.00" }))
    .on(transfer, () => ({ refuse: "19999", msg: "busy" }));
  const ok = await client(mock).executeWith(query, { accountId: "A" });
  assert.equal(ok.attempts, 2);
  await assert.rejects(client(mock).execute(transfer, { accountId: "A" }), (e: unknown) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.outcome, "refused");
    assert.equal(e.code, "19999");
    assert.equal(e.isRetryable(), true);
    assert.equal(e.attempts, 1, "a money call whose bytes arrived is not re-sent");
    assert.match(e.message, /^transfer \(requestId partner[0-9a-f]{32}, 1 attempt\): API error 19999/u);
    return true;
  });
});

test("a money call without a verified answer is OutcomeUnknown and sent once", async () => {
  const mock = new MockService(key).on(transfer, () => "no_answer");
  await assert.rejects(client(mock).execute(transfer, { accountId: "A" }), (e: unknown) => {
    assert.ok(e instanceof OutcomeUnknown);
    assert.equal(e.outcome, "unknown");
    assert.equal(e.isRetryable(), false);
    return true;
  });
  assert.equal(mock.requests.length, 1);
  const unsigned = new MockService(key).on(transfer, () => ({ refuse: "14009", msg: "no", signed: false }));
  await assert.rejects(client(unsigned).execute(transfer, { accountId: "A" }), OutcomeUnknown);
});

test("a query is retried after a lost answer or a gateway error; a never-sent money call too", async () => {
  let n = 0;
  const mock: MockService = new MockService(key)
    .on(query, () => (++n === 1 ? "no_answer" : n === 2 ? "gateway_error" : { balance: "2.00" }))
    .on(transfer, () => (mock.requestsOf(transfer).length === 1 ? "not_sent" : { balance: "3.00" }));
  assert.equal((await client(mock).executeWith(query, { accountId: "A" })).attempts, 3);
  assert.equal((await client(mock).executeWith(transfer, { accountId: "A" })).attempts, 2);
  // A fixed requestId is never re-sent once it may have arrived.
  let m = 0;
  const fixed = new MockService(key).on(query, () => (++m === 1 ? "no_answer" : { balance: "1" }));
  await assert.rejects(client(fixed).execute(query, { accountId: "A" }, { requestId: "partnerX1" }), (e: unknown) => e instanceof Error && e.name === "TransportError");
});

test("a tampered answer does not verify", async () => {
  const mock = new MockService(key).on(query, () => ({ balance: "1.00" }));
  const tamper: Fetch = async (url, init) => {
    const answer = await mock.fetch(url, init);
    return new Response((await answer.text()).replace("1.00", "9.00"), { status: 200 });
  };
  await assert.rejects(client(mock, { fetch: tamper }).execute(query, { accountId: "A" }), SignatureInvalid);
});

test("the per-call timeout aborts the exchange", async () => {
  const slow: Fetch = (_url, init) =>
    new Promise((_resolve, reject) => {
      init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
    });
  const mock = new MockService(key);
  const started = Date.now();
  await assert.rejects(client(mock, { fetch: slow, maxRetries: 0 }).execute(query, { accountId: "A" }, { timeoutMs: 50 }), (e: unknown) => {
    assert.ok(e instanceof CallTimeout);
    assert.equal(e.outcome, "unknown");
    return true;
  });
  assert.ok(Date.now() - started < 2000);
});

test("a call aborted by its signal is not retried", async () => {
  const controller = new AbortController();
  let sent = 0;
  const hanging: Fetch = (_url, init) => {
    sent += 1;
    setTimeout(() => controller.abort(), 5);
    return new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
  };
  await assert.rejects(
    client(new MockService(key), { fetch: hanging }).execute(query, { accountId: "A" }, { signal: controller.signal }),
    (e: unknown) => e instanceof Error && e.name === "TransportError",
  );
  assert.equal(sent, 1);
});

test("paging stops at the total; the waiter stops at a final state or its deadline", async () => {
  interface PageReq {
    readonly pageNo: number;
    readonly pageSize: number;
  }
  interface PageRes {
    readonly rows?: readonly string[];
    readonly total?: number;
  }
  const list: Operation<PageReq, PageRes> = {
    name: "list",
    path: "/query/list",
    movesMoney: false,
    params: { name: "L", fields: [{ wire: "pageNo", ty: { k: "int" }, required: true }, { wire: "pageSize", ty: { k: "int" }, required: true }] },
    response: {
      k: "record",
      record: () => ({ name: "P", fields: [{ wire: "rows", ty: { k: "array", item: { k: "string" } }, required: false }, { wire: "total", ty: { k: "int" }, required: false }] }),
    },
  };
  const paging: Paging<PageRes, string> = { page: "pageNo", size: "pageSize", firstPage: 1, items: (r) => r.rows, total: (r) => r.total };
  const all = ["a", "b", "c", "d", "e"];
  const mock = new MockService(key).on(list, (p) => {
    const page = Number((p["pageNo"] as { text: string }).text);
    return { rows: all.slice((page - 1) * 2, page * 2), total: all.length };
  });
  const items: string[] = [];
  for await (const item of client(mock).pages(list, paging, { pageNo: 1, pageSize: 2 }).items()) items.push(item);
  assert.deepEqual(items, all);
  assert.equal(mock.requests.length, 3);

  let polls = 0;
  const status = new MockService(key).on(query, () => ({ count: ++polls < 3 ? 1 : 8 }));
  const final = await client(status).waitUntil(query, { accountId: "A" }, (r) => (r.count === undefined ? undefined : String(r.count)), ["8"], { firstDelayMs: 1 });
  assert.equal(final.count, 8);
  const never = new MockService(key).on(query, () => ({ count: 1 }));
  await assert.rejects(
    client(never).waitUntil(query, { accountId: "A" }, (r) => String(r.count), ["8"], { firstDelayMs: 5, deadlineMs: 30 }),
    (e: unknown) => e instanceof WaitDeadline && e.lastState === "1",
  );
});

test("the key shows in no inspect, JSON, error or event", async () => {
  const secret = "partner-secret-key";
  const events: string[] = [];
  const mock = new MockService(key).on(query, () => ({ refuse: "12005", msg: "Invalid signature", signed: false }));
  const c = client(mock, { onCall: (e) => events.push(JSON.stringify(e)) });
  const error = await c.execute(query, { accountId: "A" }).catch((e: unknown) => e);
  const shown = [inspect(key), String(key), `${key}`, JSON.stringify({ key }), inspect(c, { depth: 5 }), inspect(c.config, { depth: 5 }), inspect(error, { depth: 5 }), inspect(mock, { depth: 5 }), ...events];
  for (const text of shown) assert.ok(!text.includes(secret), text);
  assert.ok(inspect(key).includes("[redacted]"));
  assert.equal(key.redact(`a ${secret} b`), "a [redacted] b");
});

test("configuration is checked before any call", () => {
  const mock = new MockService(key);
  assert.throws(() => client(mock, { baseUrl: "http://bank.example" }), ConfigError);
  assert.throws(() => client(mock, { baseUrl: "ftp://x" }), ConfigError);
  assert.throws(() => client(mock, { privateKey: new PrivateKey("") }), ConfigError);
  client(mock, { baseUrl: "http://127.0.0.1:8080" });
});

test("Decimal is exact", () => {
  assert.equal(Decimal.parse("0.1").plus("0.2").toString(), "0.3");
  assert.equal(Decimal.parse("100.50").toString(), "100.50");
  assert.equal(Decimal.parse("-1.5e2").toString(), "-150");
  assert.equal(Decimal.parse("1.005").withScale(4).toString(), "1.0050");
  assert.ok(Decimal.parse("10.00").isWhole());
  assert.equal(Decimal.parse("10.00").compare("10"), 0);
  assert.equal(Decimal.parse("0.05").minus("1").toString(), "-0.95");
  assert.throws(() => Decimal.parse("1,5"), RangeError);
  assert.throws(() => Decimal.parse("NaN"), RangeError);
});

test("params of an unshown operation are sent as given, numbers exactly", async () => {
  const raw: Operation<JsonObject, unknown> = { name: "raw", path: "/raw", movesMoney: false, params: undefined, response: undefined };
  const mock = new MockService(key).on(raw, (p) => ({ got: p }));
  const c = client(mock);
  const data = await c.execute(raw, { a: "x", n: new (await import("../src/index.js")).JsonNumber("1.50") } as unknown as JsonObject);
  assert.equal(JSON.stringify(data), '{"got":{"a":"x","n":"1.50"}}');
  await assert.rejects(c.execute(raw, { f: 1.5 } as unknown as JsonObject), (e: unknown) => e instanceof Error && e.name === "EncodeError");
});

test("an empty key variable is no key", () => {
  process.env["BAAS_TEST_KEY_VARIABLE"] = "";
  try {
    assert.equal(PrivateKey.fromEnv("BAAS_TEST_KEY_VARIABLE"), undefined);
    process.env["BAAS_TEST_KEY_VARIABLE"] = "k";
    assert.ok(PrivateKey.fromEnv("BAAS_TEST_KEY_VARIABLE") instanceof PrivateKey);
  } finally {
    delete process.env["BAAS_TEST_KEY_VARIABLE"];
  }
});
