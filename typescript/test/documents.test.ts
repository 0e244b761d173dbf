// Documents (spec type `document`, decision `document-type`): a request's document field takes a
// Uint8Array, sent as standard padded Base64 and signed over that text; a file is read with
// Document.fromPath; base64_max_bytes refuses a document too large before sending; a Document
// never shows its bytes; an answer's document never fails to read.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { inspect } from "node:util";
import {
  applyForCnyExpress,
  BeneficiaryType,
  Client,
  CnyDocumentType,
  Document,
  InvalidRequest,
  MockService,
  PaymentPurpose,
  PrivateKey,
  txReversal,
  type ApplyForCnyExpressRequest,
} from "@baas/client";
import { readValue } from "../src/shape.js";

const key = new PrivateKey("unit-test-key-42");
const client = (mock: MockService): Client =>
  new Client({ baseUrl: "https://bank.example", sender: "partner", privateKey: key, fetch: mock.fetch });
const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0x00, 0xff, 0xfe, 0x80]);

const cny = (documents: Partial<ApplyForCnyExpressRequest>): ApplyForCnyExpressRequest => ({
  payerAccountId: "1000000001",
  beneficiaryType: BeneficiaryType.Enterprise,
  beneficiaryName: "Shenzhen Trading",
  beneficiaryIdNumber: "91440300",
  beneficiaryBankCode: "CMB",
  beneficiaryBankName: "China Merchants Bank",
  beneficiaryBankAddress: "Shenzhen",
  beneficiaryAccountId: "6225880000000000",
  paymentPurpose: PaymentPurpose.PurchaseGoods,
  supportDocumentFile: new Uint8Array([1]),
  supportDocumentType: CnyDocumentType.Pdf,
  companyRegisDocumentFile: new Uint8Array([2]),
  companyRegisDocumentType: CnyDocumentType.Pdf,
  invoiceDocumentType: CnyDocumentType.Pdf,
  oderArray: [{ productName: "goods", quantity: 1, amount: "100.00", orderTime: 1, platform: "shop" }],
  ...documents,
});

test("bytes are sent as the exact Base64 text, signed over it; a file is read and encoded", async () => {
  const mock = new MockService(key).on(txReversal, () => ({ applicationId: "A1" }));
  const answer = await client(mock).txReversal({ transactionId: "T1", voucherBase64: PDF });
  assert.equal(answer.applicationId, "A1");
  // The mock verified the signature over the exact bytes it received.
  assert.equal(mock.requests[0]?.params["voucherBase64"], "JVBERi0xLjcKAP/+gA==");

  const dir = mkdtempSync(join(tmpdir(), "baas-doc-"));
  try {
    const file = join(dir, "voucher.pdf");
    writeFileSync(file, Buffer.concat([PDF, PDF]));
    await client(mock).txReversal({ transactionId: "T2", voucherBase64: await Document.fromPath(file) });
    assert.equal(mock.requests[1]?.params["voucherBase64"], Buffer.concat([PDF, PDF]).toString("base64"));
    await assert.rejects(Document.fromPath(join(dir, "missing.pdf")), /missing\.pdf/u);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test("a document too large is refused before sending, naming the field and the rule", async () => {
  const mock = new MockService(key).on(applyForCnyExpress, () => ({ applicationId: "A1" }));
  await client(mock).applyForCnyExpress(cny({ invoice: new Uint8Array(31457280) }));
  await assert.rejects(client(mock).applyForCnyExpress(cny({ invoice: new Uint8Array(31457281) })), (e: unknown) => {
    assert.ok(e instanceof InvalidRequest);
    assert.deepEqual(e.violations.map((v) => [v.field, v.rule]), [["invoice", "base64_max_bytes"]]);
    assert.match(e.message, /31457281 bytes, at most 31457280 allowed/u);
    return true;
  });
  await assert.rejects(
    client(mock).applyForCnyExpress(cny({ supportDocumentFile: "JVBERi0=" as unknown as Uint8Array })),
    (e: unknown) => {
      assert.ok(e instanceof InvalidRequest);
      assert.deepEqual(e.violations.map((v) => [v.field, v.rule]), [["supportDocumentFile", "type"]]);
      return true;
    },
  );
  assert.equal(mock.requests.length, 1);
});

test("an empty required document is refused before sending as an empty string is; one byte passes", async () => {
  const mock = new MockService(key).on(applyForCnyExpress, () => ({ applicationId: "A1" }));
  const refused = async (request: ApplyForCnyExpressRequest): Promise<[string[][], string]> => {
    let got: [string[][], string] | undefined;
    await assert.rejects(client(mock).applyForCnyExpress(request), (e: unknown) => {
      assert.ok(e instanceof InvalidRequest);
      assert.equal(e.outcome, "not_sent");
      got = [e.violations.map((v) => [v.field, v.rule]), e.message];
      return true;
    });
    assert.ok(got !== undefined);
    return got;
  };
  const [documentViolations, documentMessage] = await refused(cny({ supportDocumentFile: new Uint8Array(0) }));
  assert.deepEqual(documentViolations, [["supportDocumentFile", "required"]]);
  const [textViolations, textMessage] = await refused(cny({ payerAccountId: "" }));
  assert.deepEqual(textViolations, [["payerAccountId", "required"]]);
  assert.equal(documentMessage.replace("supportDocumentFile", "payerAccountId"), textMessage);
  assert.deepEqual((await refused(cny({ companyRegisDocumentFile: Document.ofBytes(new Uint8Array(0)) })))[0], [
    ["companyRegisDocumentFile", "required"],
  ]);
  // An empty invoice while the orders exceed 70000 is an absent one.
  const big = [{ productName: "goods", quantity: 1, amount: "70000.01", orderTime: 1, platform: "shop" }];
  assert.deepEqual((await refused(cny({ oderArray: big, invoice: new Uint8Array(0) })))[0], [["invoice", "required_if"]]);
  assert.equal(mock.requests.length, 0);
  await client(mock).applyForCnyExpress(cny({ supportDocumentFile: new Uint8Array([0]), oderArray: big, invoice: new Uint8Array([0]) }));
  assert.equal(mock.requests.length, 1);
});

test("a Document never shows its bytes", () => {
  const secret = Document.ofBytes(Buffer.from("PASSPORT-NUMBER-X1234567"));
  for (const shown of [String(secret), `${secret}`, inspect(secret), JSON.stringify({ doc: secret }), inspect({ doc: secret })]) {
    assert.ok(!shown.includes("80") && !shown.includes("PASSPORT") && !shown.includes("UEFTU1BPUlQ"), shown);
    assert.match(shown, /Document\(24 bytes\)/u);
  }
  assert.ok(secret instanceof Uint8Array);
});

test("an answer's document never fails to read", () => {
  const read = (text: string): string => Buffer.from(readValue({ k: "document" }, text, "d") as Uint8Array).toString("latin1");
  assert.equal(read("Zm9vYmFy"), "foobar");
  assert.equal(read("Zm9vYg"), "foob");
  assert.equal(read("Zm9v\r\nYmFy"), "foobar");
  assert.equal(read("-_8="), "\xfb\xff");
  assert.equal(read("data:application/pdf;base64,JVBE"), "data:application/pdf;base64,JVBE");
  assert.throws(() => readValue({ k: "document" }, true, "d"));
});
